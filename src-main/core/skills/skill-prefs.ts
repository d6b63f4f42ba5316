import type Database from 'better-sqlite3';

interface Pref {
  enabled: boolean;
  /** For a server's skill: the fingerprint of its files (every URI and digest) when it was switched on. */
  fingerprint: string | null;
}

/**
 * The user's switch for each skill (table `skill_prefs`, by the skill's key). A skill without a row
 * has its source's default: a local skill (the user put it in their folder) is on; a server's is off
 * until the user switches it on, as skills are a higher-risk surface than tools (SEP-2640, Security).
 * A server's skill switched on is bound to its files as they were then (SEP-2640 "Content-bound
 * approval"): when the server's entry lists other files or digests, the switch counts as off again.
 */
export class SkillPrefs {
  private readonly write: Database.Statement<[string, number, string | null, string]>;
  private readonly drop: Database.Statement<[string]>;
  private readonly chosen = new Map<string, Pref>();

  constructor(db: Database.Database) {
    this.write = db.prepare(
      `INSERT INTO skill_prefs (key, enabled, fingerprint, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET enabled = excluded.enabled, fingerprint = excluded.fingerprint, updated_at = excluded.updated_at`,
    );
    this.drop = db.prepare("DELETE FROM skill_prefs WHERE key LIKE ? ESCAPE '\\'");
    // Read once: asked for every skill on every chat request.
    const rows = db.prepare('SELECT key, enabled, fingerprint FROM skill_prefs').all() as {
      key: string;
      enabled: number;
      fingerprint: string | null;
    }[];
    for (const row of rows) this.chosen.set(row.key, { enabled: row.enabled === 1, fingerprint: row.fingerprint });
  }

  /** Whether the skill is on: its row's switch (for a fingerprinted one, only while its files are the same), else the default. */
  enabled(key: string, byDefault: boolean, fingerprint?: string): boolean {
    const pref = this.chosen.get(key);
    if (!pref) return byDefault;
    return pref.enabled && !this.revoked(key, fingerprint);
  }

  /** Switched on for other files than the skill has now: the approval no longer holds. */
  revoked(key: string, fingerprint: string | undefined): boolean {
    const pref = this.chosen.get(key);
    return pref?.enabled === true && pref.fingerprint !== null && fingerprint !== undefined && pref.fingerprint !== fingerprint;
  }

  set(key: string, enabled: boolean, now: Date, fingerprint?: string): void {
    this.write.run(key, enabled ? 1 : 0, fingerprint ?? null, now.toISOString());
    this.chosen.set(key, { enabled, fingerprint: fingerprint ?? null });
  }

  /** Forgets the switches of every key starting with this prefix (a removed server's skills). */
  forget(prefix: string): void {
    this.drop.run(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    for (const key of [...this.chosen.keys()]) if (key.startsWith(prefix)) this.chosen.delete(key);
  }
}
