import type Database from 'better-sqlite3';

/** Whether each server's instructions go to the model (table `server_instructions_prefs`; on unless a row says off). */
export class InstructionPrefs {
  private readonly write: Database.Statement<[string, number]>;
  private readonly off = new Set<string>();

  constructor(db: Database.Database) {
    this.write = db.prepare(
      'INSERT INTO server_instructions_prefs (server_id, send) VALUES (?, ?) ON CONFLICT (server_id) DO UPDATE SET send = excluded.send',
    );
    // Read once: asked on every chat request and meter count.
    for (const row of db.prepare('SELECT server_id FROM server_instructions_prefs WHERE send = 0').all() as { server_id: string }[])
      this.off.add(row.server_id);
  }

  sends(serverId: string): boolean {
    return !this.off.has(serverId);
  }

  set(serverId: string, send: boolean): void {
    this.write.run(serverId, send ? 1 : 0);
    if (send) this.off.delete(serverId);
    else this.off.add(serverId);
  }
}
