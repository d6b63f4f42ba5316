import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseStatus } from '@contract';
import { migrate, MIGRATIONS, readSchemaVersion } from './migrations';

export const DATABASE_FILE = 'patchbay.db';

/** Thrown when the database was written by a newer Patchbay: we refuse to touch it. */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly dbPath: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The database at ${dbPath} was written by a newer Patchbay (schema ${found}; this version knows ` +
        `up to ${supported}). It was left untouched: update Patchbay, or start with another --data-dir.`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface OpenedDatabase {
  db: Database.Database;
  status: DatabaseStatus;
}

export interface OpenDatabaseOptions {
  /** Path to an Electron-ABI build of better-sqlite3, when running inside Electron. */
  nativeBinding?: string;
  /** Clock for the moved-aside file names; injectable for tests. */
  now?: () => Date;
  /** The migrations to apply (tests use their own list); defaults to the app's. */
  migrations?: readonly string[];
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** True when the file does not even start with SQLite's header: no need to open it to know. */
function lacksSqliteHeader(dbPath: string): boolean {
  const fd = fs.openSync(dbPath, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    // An empty file is a valid (new) database to SQLite; anything else must start with the header.
    return read > 0 && (read < head.length || !head.equals(SQLITE_HEADER));
  } finally {
    fs.closeSync(fd);
  }
}

type Inspection = { kind: 'missing' } | { kind: 'healthy'; version: number } | { kind: 'corrupt'; reason: string };

/** Looks at an existing database file read-only, so a newer or broken file is never modified. */
function inspect(dbPath: string, options: OpenDatabaseOptions): Inspection {
  if (!fs.existsSync(dbPath)) return { kind: 'missing' };
  if (lacksSqliteHeader(dbPath)) return { kind: 'corrupt', reason: 'not an SQLite database' };
  let db: Database.Database | undefined;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding });
    const version = readSchemaVersion(db);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') return { kind: 'corrupt', reason: String(check) };
    return { kind: 'healthy', version };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
      return { kind: 'corrupt', reason: (error as Error).message };
    }
    throw error;
  } finally {
    db?.close();
  }
}

/** Moves a corrupt database and its -wal/-shm companions aside (kept, never deleted). */
function moveAside(dbPath: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const target = `${dbPath}.corrupt-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(dbPath + suffix)) fs.renameSync(dbPath + suffix, target + suffix);
  }
  return target;
}

/** Copies the live database consistently (SQLite's online backup), never a raw file copy. */
function backupBeforeMigration(db: Database.Database, dbPath: string, from: number): void {
  const target = `${dbPath}.before-schema-${from + 1}.bak`;
  if (fs.existsSync(target)) fs.rmSync(target);
  db.exec(`VACUUM INTO '${target.replace(/'/g, "''")}'`);
}

/**
 * Opens (creating if needed) the database in `dataDir`: refuses a newer schema, moves a corrupt file
 * aside, enables WAL with `synchronous=FULL` (set after the journal switch, because this SQLite build
 * defaults WAL connections to NORMAL, which can lose acknowledged commits on power loss), and migrates.
 */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): OpenedDatabase {
  fs.mkdirSync(dataDir, { recursive: true });
  const dbPath = path.join(dataDir, DATABASE_FILE);
  const migrations = options.migrations ?? MIGRATIONS;
  const found = inspect(dbPath, options);
  if (found.kind === 'healthy' && found.version > migrations.length) {
    throw new DatabaseTooNewError(dbPath, found.version, migrations.length);
  }
  const movedAsideTo = found.kind === 'corrupt' ? moveAside(dbPath, (options.now ?? (() => new Date()))()) : undefined;

  const db = new Database(dbPath, { nativeBinding: options.nativeBinding });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const from = readSchemaVersion(db);
    if (from > 0 && from < migrations.length) backupBeforeMigration(db, dbPath, from);
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, status: describeDatabase(db, dbPath, movedAsideTo) };
}

const SYNCHRONOUS_NAMES = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;

/** Reads back the settings that matter for durability, as they actually are on this connection. */
export function describeDatabase(db: Database.Database, dbPath: string, movedAsideTo?: string): DatabaseStatus {
  const level = db.pragma('synchronous', { simple: true }) as number;
  return {
    path: dbPath,
    state: movedAsideTo ? 'recovered' : 'ok',
    schemaVersion: readSchemaVersion(db),
    journalMode: String(db.pragma('journal_mode', { simple: true })),
    synchronous: SYNCHRONOUS_NAMES[level] ?? 'OFF',
    ...(movedAsideTo ? { movedAsideTo } : {}),
  };
}

/** Writes a consistent copy of the live database to `target` with SQLite's online backup API. */
export async function backupDatabase(db: Database.Database, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await db.backup(target);
}
