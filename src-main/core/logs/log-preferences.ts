import type Database from 'better-sqlite3';
import { DEFAULT_LOG_SETTINGS, LOG_LEVELS, LogSettingsSchema, type LogLevel, type LogSettings } from '@contract';

/**
 * The user's log choices in SQLite: retention settings (defaults for anything missing or invalid, so
 * a hand-edited database never breaks start-up) and the log level chosen per server.
 */
export class LogPreferences {
  constructor(private readonly db: Database.Database) {}

  readSettings(): LogSettings {
    const settings: Record<string, unknown> = { ...DEFAULT_LOG_SETTINGS };
    for (const row of this.db.prepare('SELECT key, value FROM log_settings').all() as { key: string; value: string }[]) {
      if (!(row.key in LogSettingsSchema.shape)) continue;
      try {
        const parsed = LogSettingsSchema.shape[row.key as keyof LogSettings].safeParse(JSON.parse(row.value));
        if (parsed.success) settings[row.key] = parsed.data;
      } catch {
        // Not JSON: the default applies.
      }
    }
    return settings as LogSettings;
  }

  /** Writes the given keys in one transaction; returns the settings as committed. */
  writeSettings(patch: Partial<LogSettings>): LogSettings {
    const upsert = this.db.prepare(
      'INSERT INTO log_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) if (value !== undefined) upsert.run(key, JSON.stringify(value));
    })();
    return this.readSettings();
  }

  levels(): Record<string, LogLevel> {
    const levels: Record<string, LogLevel> = {};
    for (const row of this.db.prepare('SELECT server_id, level FROM log_levels').all() as { server_id: string; level: string }[]) {
      if ((LOG_LEVELS as readonly string[]).includes(row.level)) levels[row.server_id] = row.level as LogLevel;
    }
    return levels;
  }

  setLevel(serverId: string, level: LogLevel): void {
    this.db
      .prepare('INSERT INTO log_levels (server_id, level) VALUES (?, ?) ON CONFLICT(server_id) DO UPDATE SET level = excluded.level')
      .run(serverId, level);
  }

  forgetServer(serverId: string): void {
    this.db.prepare('DELETE FROM log_levels WHERE server_id = ?').run(serverId);
  }

  /** Levels of servers that no longer exist. */
  deleteOrphans(): void {
    this.db.prepare('DELETE FROM log_levels WHERE server_id NOT IN (SELECT id FROM servers)').run();
  }
}
