import type Database from 'better-sqlite3';

/** A followed resource as stored. */
export interface StoredSubscription {
  serverId: string;
  uri: string;
  createdAt: string;
}

/** The resources the user follows (table `resource_subscriptions`), kept until they unsubscribe or remove the server. */
export class SubscriptionRepository {
  constructor(private readonly db: Database.Database) {}

  list(): StoredSubscription[] {
    return (
      this.db.prepare('SELECT server_id, uri, created_at FROM resource_subscriptions ORDER BY created_at, uri').all() as {
        server_id: string;
        uri: string;
        created_at: string;
      }[]
    ).map((r) => ({ serverId: r.server_id, uri: r.uri, createdAt: r.created_at }));
  }

  add(serverId: string, uri: string, at: Date): void {
    this.db
      .prepare('INSERT INTO resource_subscriptions (server_id, uri, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .run(serverId, uri, at.toISOString());
  }

  remove(serverId: string, uri: string): void {
    this.db.prepare('DELETE FROM resource_subscriptions WHERE server_id = ? AND uri = ?').run(serverId, uri);
  }

  forgetServer(serverId: string): void {
    this.db.prepare('DELETE FROM resource_subscriptions WHERE server_id = ?').run(serverId);
  }
}
