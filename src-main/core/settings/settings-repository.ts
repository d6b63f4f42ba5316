import type Database from 'better-sqlite3';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsPatch } from '../../../src-preload/contract';

/**
 * Settings persisted as one row per key (JSON values). Unknown or invalid stored values fall back to
 * their defaults instead of breaking start-up: a hand-edited database must not lock the user out.
 */
export class SettingsRepository {
  private readonly selectAll: Database.Statement<[], { key: string; value: string }>;
  private readonly upsert: Database.Statement<[string, string, string]>;

  constructor(private readonly db: Database.Database) {
    this.selectAll = db.prepare('SELECT key, value FROM settings');
    this.upsert = db.prepare(
      'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ' +
        'ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
  }

  read(): Settings {
    const stored: Record<string, unknown> = {};
    for (const row of this.selectAll.all()) {
      try {
        stored[row.key] = JSON.parse(row.value);
      } catch {
        // A value that is not JSON is treated as absent: its default applies.
      }
    }
    const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      const parsed = SettingsSchema.shape[key].safeParse(stored[key]);
      if (parsed.success) settings[key] = parsed.data;
    }
    return settings as Settings;
  }

  /** Writes every key of the patch in one transaction; returns the settings as committed. */
  write(patch: SettingsPatch, now: Date): Settings {
    const at = now.toISOString();
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) this.upsert.run(key, JSON.stringify(value), at);
      }
    })();
    return this.read();
  }
}
