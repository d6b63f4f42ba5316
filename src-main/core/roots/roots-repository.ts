import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import type { RootSharingView } from '@contract';

/** A folder as stored (availability is a runtime fact, not stored). */
export interface StoredRoot {
  id: string;
  name: string;
  path: string;
  pickedPath?: string;
  /** Shared read-only: a sandboxed server gets it mounted read-only. */
  readOnly: boolean;
  createdAt: string;
}

/** A decided policy; `undefined` from `sharing()` means not decided yet. */
export type DecidedSharing = Omit<RootSharingView, 'mode'> & { mode: 'none' | 'all' | 'subset' };

interface RootRow {
  id: string;
  name: string;
  path: string;
  picked_path: string | null;
  read_only: number;
  created_at: string;
}

interface SharingRow {
  server_id: string;
  mode: 'none' | 'all' | 'subset';
  decided_at: string;
}

const toRoot = (row: RootRow): StoredRoot => ({
  id: row.id,
  name: row.name,
  path: row.path,
  ...(row.picked_path ? { pickedPath: row.picked_path } : {}),
  readOnly: row.read_only === 1,
  createdAt: row.created_at,
});

/**
 * The folders and every server's sharing policy, in SQLite. Removing a folder drops it from every
 * `subset` policy in the same statement (foreign keys), so no policy can point at a folder that is gone.
 */
export class RootsRepository {
  /** Prepared once: every server's `roots/list` reads it (50 at a start). */
  private readonly listAll: Database.Statement<[], RootRow>;

  constructor(private readonly db: Database.Database) {
    this.listAll = db.prepare<[], RootRow>('SELECT * FROM roots ORDER BY position, created_at');
  }

  list(): StoredRoot[] {
    return this.listAll.all().map(toRoot);
  }

  get(id: string): StoredRoot | undefined {
    const row = this.db.prepare<[string], RootRow>('SELECT * FROM roots WHERE id = ?').get(id);
    return row && toRoot(row);
  }

  findByPath(canonicalPath: string): StoredRoot | undefined {
    const row = this.db.prepare<[string], RootRow>('SELECT * FROM roots WHERE path = ?').get(canonicalPath);
    return row && toRoot(row);
  }

  insert(fields: { name: string; path: string; pickedPath?: string }, now: Date): StoredRoot {
    const id = crypto.randomUUID();
    this.db
      .prepare(
        `INSERT INTO roots (id, name, path, picked_path, position, created_at)
         VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM roots), ?)`,
      )
      .run(id, fields.name, fields.path, fields.pickedPath ?? null, now.toISOString());
    return this.get(id)!;
  }

  rename(id: string, name: string): StoredRoot | undefined {
    this.db.prepare('UPDATE roots SET name = ? WHERE id = ?').run(name, id);
    return this.get(id);
  }

  setReadOnly(id: string, readOnly: boolean): StoredRoot | undefined {
    this.db.prepare('UPDATE roots SET read_only = ? WHERE id = ?').run(readOnly ? 1 : 0, id);
    return this.get(id);
  }

  /** True when a folder was removed. */
  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM roots WHERE id = ?').run(id).changes > 0;
  }

  /** Every decided policy. */
  listSharing(): DecidedSharing[] {
    const rows = this.db.prepare<[], SharingRow>('SELECT * FROM root_sharing ORDER BY server_id').all();
    const chosen = this.db.prepare<[], { server_id: string; root_id: string }>('SELECT server_id, root_id FROM root_sharing_roots').all();
    return rows.map((row) => ({
      serverId: row.server_id,
      mode: row.mode,
      rootIds: chosen.filter((c) => c.server_id === row.server_id).map((c) => c.root_id),
      decidedAt: row.decided_at,
    }));
  }

  /** The server's policy, or undefined while the user has not decided. */
  sharing(serverId: string): DecidedSharing | undefined {
    const row = this.db.prepare<[string], SharingRow>('SELECT * FROM root_sharing WHERE server_id = ?').get(serverId);
    if (!row) return undefined;
    const rootIds = this.db
      .prepare<[string], { root_id: string }>('SELECT root_id FROM root_sharing_roots WHERE server_id = ?')
      .all(serverId)
      .map((r) => r.root_id);
    return { serverId, mode: row.mode, rootIds, decidedAt: row.decided_at };
  }

  /** Replaces the server's policy in one transaction. Unknown folder ids are dropped, not stored. */
  setSharing(serverId: string, mode: DecidedSharing['mode'], rootIds: readonly string[], now: Date): DecidedSharing {
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO root_sharing (server_id, mode, decided_at) VALUES (?, ?, ?) ON CONFLICT (server_id) DO UPDATE SET mode = excluded.mode, decided_at = excluded.decided_at',
        )
        .run(serverId, mode, now.toISOString());
      this.db.prepare('DELETE FROM root_sharing_roots WHERE server_id = ?').run(serverId);
      if (mode !== 'subset') return;
      const insert = this.db.prepare('INSERT OR IGNORE INTO root_sharing_roots (server_id, root_id) SELECT ?, id FROM roots WHERE id = ?');
      for (const rootId of rootIds) insert.run(serverId, rootId);
    })();
    return this.sharing(serverId)!;
  }
}
