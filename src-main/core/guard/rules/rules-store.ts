/**
 * The user's rules, stored as the text they wrote (reviewable, diffable, exported with the settings
 * table): one row of the settings table under its own key, outside the Settings schema, since the
 * text is checked by the rule language, not by zod.
 */
import type Database from 'better-sqlite3';

const KEY = 'guard.rules';

export class RulesStore {
  private readonly select: Database.Statement<[string], { value: string }>;
  private readonly upsert: Database.Statement<[string, string, string]>;

  constructor(db: Database.Database) {
    this.select = db.prepare('SELECT value FROM settings WHERE key = ?');
    this.upsert = db.prepare(
      'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ' +
        'ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
  }

  read(): string {
    const row = this.select.get(KEY);
    if (!row) return '';
    try {
      const value: unknown = JSON.parse(row.value);
      return typeof value === 'string' ? value : '';
    } catch {
      return '';
    }
  }

  write(text: string, now: Date): void {
    this.upsert.run(KEY, JSON.stringify(text), now.toISOString());
  }
}
