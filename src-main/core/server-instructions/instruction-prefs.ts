import type Database from 'better-sqlite3';

/**
 * Whether each server's instructions go to the model (table `server_instructions_prefs`; off unless a
 * row says on: a new server's start off, and servers from before migration 021 kept theirs on).
 */
export class InstructionPrefs {
  private readonly write: Database.Statement<[string, number]>;
  private readonly on = new Set<string>();

  constructor(db: Database.Database) {
    this.write = db.prepare(
      'INSERT INTO server_instructions_prefs (server_id, send) VALUES (?, ?) ON CONFLICT (server_id) DO UPDATE SET send = excluded.send',
    );
    // Read once: asked on every chat request and meter count.
    for (const row of db.prepare('SELECT server_id FROM server_instructions_prefs WHERE send = 1').all() as { server_id: string }[])
      this.on.add(row.server_id);
  }

  sends(serverId: string): boolean {
    return this.on.has(serverId);
  }

  set(serverId: string, send: boolean): void {
    this.write.run(serverId, send ? 1 : 0);
    if (send) this.on.add(serverId);
    else this.on.delete(serverId);
  }
}
