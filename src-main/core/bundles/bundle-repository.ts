import type Database from 'better-sqlite3';
import type { BundleManifest } from './bundle-manifest';

/** One setting to store: a plain value, or a sealed one. */
export type SettingRow = { key: string; value: string | number | boolean | string[] } | { key: string; sealed: Buffer };

/** An installed bundle as stored. */
export interface StoredBundle {
  id: string;
  version: string;
  manifest: BundleManifest;
  installedAt: string;
}

/** The `bundles` and `bundle_settings` tables: which bundles are installed, and the settings the user gave each. */
export class BundleRepository {
  constructor(private readonly db: Database.Database) {}

  get(id: string): StoredBundle | undefined {
    const row = this.db
      .prepare<[string], { id: string; version: string; manifest: string; installed_at: string }>('SELECT * FROM bundles WHERE id = ?')
      .get(id);
    return row
      ? { id: row.id, version: row.version, manifest: JSON.parse(row.manifest) as BundleManifest, installedAt: row.installed_at }
      : undefined;
  }

  /** The server that runs the bundle, if any. */
  serverOf(id: string): string | undefined {
    return this.db.prepare<[string], { id: string }>('SELECT id FROM servers WHERE bundle_id = ?').get(id)?.id;
  }

  /** The bundle a server runs, if any. */
  bundleOf(serverId: string): string | undefined {
    return (
      this.db.prepare<[string], { bundle_id: string | null }>('SELECT bundle_id FROM servers WHERE id = ?').get(serverId)?.bundle_id ??
      undefined
    );
  }

  settings(id: string): SettingRow[] {
    return this.db
      .prepare<[string], { key: string; value: string | null; secret_blob: Buffer | null }>(
        'SELECT key, value, secret_blob FROM bundle_settings WHERE bundle_id = ? ORDER BY key',
      )
      .all(id)
      .map((row) =>
        row.secret_blob ? { key: row.key, sealed: row.secret_blob } : { key: row.key, value: JSON.parse(row.value ?? 'null') },
      );
  }

  /** Records the bundle and replaces its settings, in one transaction. */
  save(id: string, manifest: BundleManifest, settings: readonly SettingRow[], now: Date): void {
    const at = now.toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO bundles (id, version, manifest, installed_at, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET version = excluded.version, manifest = excluded.manifest, updated_at = excluded.updated_at`,
        )
        .run(id, manifest.version, JSON.stringify(manifest), at, at);
      this.db.prepare('DELETE FROM bundle_settings WHERE bundle_id = ?').run(id);
      const insert = this.db.prepare('INSERT INTO bundle_settings (bundle_id, key, value, secret_blob) VALUES (?, ?, ?, ?)');
      for (const setting of settings) {
        if ('sealed' in setting) insert.run(id, setting.key, null, setting.sealed);
        else insert.run(id, setting.key, JSON.stringify(setting.value), null);
      }
    })();
  }

  remove(id: string): void {
    this.db.prepare('DELETE FROM bundles WHERE id = ?').run(id);
  }
}
