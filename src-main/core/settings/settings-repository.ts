import type Database from 'better-sqlite3';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsPatch } from '@contract';

/**
 * Settings another area stores with its own data (a quick field for it, e.g. the Anthropic
 * provider's base URL): read through it, and written through it in the settings' transaction.
 */
export interface LinkedSettings {
  readonly keys: readonly (keyof Settings)[];
  read(): Partial<Settings>;
  write(patch: Partial<Settings>, now: Date): void;
}

/**
 * Settings persisted as one row per key (JSON values). Unknown or invalid stored values fall back to
 * their defaults instead of breaking start-up: a hand-edited database must not lock the user out.
 */
export class SettingsRepository {
  private readonly selectAll: Database.Statement<[], { key: string; value: string }>;
  private readonly upsert: Database.Statement<[string, string, string]>;

  constructor(
    private readonly db: Database.Database,
    private readonly linked?: LinkedSettings,
  ) {
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
    for (const [key, value] of Object.entries(this.linked?.read() ?? {})) {
      if (SettingsSchema.shape[key as keyof Settings].safeParse(value).success) settings[key] = value;
    }
    return settings as Settings;
  }

  /** Writes every key of the patch in one transaction; returns the settings as committed. */
  write(patch: SettingsPatch, now: Date): Settings {
    const at = now.toISOString();
    const linkedKeys: readonly string[] = this.linked?.keys ?? [];
    this.db.transaction(() => {
      const linkedPatch: Partial<Settings> = {};
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        if (linkedKeys.includes(key)) Object.assign(linkedPatch, { [key]: value });
        else this.upsert.run(key, JSON.stringify(value), at);
      }
      if (Object.keys(linkedPatch).length > 0) this.linked!.write(linkedPatch, now);
    })();
    return this.read();
  }
}
