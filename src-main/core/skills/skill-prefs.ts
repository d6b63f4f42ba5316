import type Database from 'better-sqlite3';

/**
 * The user's switch for each skill (table `skill_prefs`, by the skill's key). A skill without a row
 * has its source's default: a local skill (the user put it in their folder) is on; a server's is off
 * until the user switches it on, as skills are a higher-risk surface than tools (SEP-2640, Security).
 */
export class SkillPrefs {
  private readonly write: Database.Statement<[string, number, string]>;
  private readonly drop: Database.Statement<[string]>;
  private readonly chosen = new Map<string, boolean>();

  constructor(db: Database.Database) {
    this.write = db.prepare(
      'INSERT INTO skill_prefs (key, enabled, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at',
    );
    this.drop = db.prepare("DELETE FROM skill_prefs WHERE key LIKE ? ESCAPE '\\'");
    // Read once: asked for every skill on every chat request.
    for (const row of db.prepare('SELECT key, enabled FROM skill_prefs').all() as { key: string; enabled: number }[])
      this.chosen.set(row.key, row.enabled === 1);
  }

  enabled(key: string, byDefault: boolean): boolean {
    return this.chosen.get(key) ?? byDefault;
  }

  set(key: string, enabled: boolean, now: Date): void {
    this.write.run(key, enabled ? 1 : 0, now.toISOString());
    this.chosen.set(key, enabled);
  }

  /** Forgets the switches of every key starting with this prefix (a removed server's skills). */
  forget(prefix: string): void {
    this.drop.run(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    for (const key of [...this.chosen.keys()]) if (key.startsWith(prefix)) this.chosen.delete(key);
  }
}
