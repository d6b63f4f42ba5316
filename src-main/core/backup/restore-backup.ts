/**
 * Restoring a full backup in two steps. `stageRestore` checks the archive like any untrusted zip (paths,
 * sizes, ratio), accepts only what a backup holds, opens its database read-only (SQLite's header,
 * `quick_check`, a schema this Patchbay knows) and unpacks it into `restore-pending/`. Nothing in use
 * changes. `applyPendingRestore` runs when Patchbay starts, before the database is opened: the current
 * database, bundles and preset data are moved into `before-restore-<time>/` (kept, never deleted) and
 * the staged ones take their place.
 */
import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PendingRestore } from '@contract';
import { checkZip, ZipRefusedError } from '../safe-zip';
import { DATABASE_FILE } from '../store/database';
import { MIGRATIONS, readSchemaVersion } from '../store/migrations';
import { BACKED_UP_PATHS, BACKUP_MANIFEST } from './backup-archive';

export const PENDING_DIR = 'restore-pending';
const PENDING_FILE = 'restore.json';
/** Backups hold databases, which compress well; still bounded. */
const BACKUP_LIMITS = { maxEntries: 200_000, maxUnpackedBytes: 8 * 1024 * 1024 * 1024, maxRatio: 1_000 };

/** Checks a backup file and stages it for the next start; throws `ZipRefusedError` saying why it is not usable. */
export async function stageRestore(
  dataDir: string,
  file: string,
  context: { from: string; now: Date; nativeBinding?: string },
): Promise<PendingRestore> {
  const zip = await checkZip(file, BACKUP_LIMITS);
  const allowed = new Set<string>([DATABASE_FILE, BACKUP_MANIFEST, ...BACKED_UP_PATHS]);
  const stray = zip.items.find((item) => !allowed.has(item.name.split('/')[0]));
  if (stray) throw new ZipRefusedError(`it holds ${stray.name}, which is not part of a Patchbay backup`);
  const manifest = await zip.read(BACKUP_MANIFEST, 64 * 1024);
  if (!manifest || !/"format":\s*"patchbay-backup"/.test(manifest.toString('utf8'))) {
    throw new ZipRefusedError('it is not a Patchbay backup (no backup.json)');
  }
  if (!zip.items.some((item) => item.name === DATABASE_FILE && !item.directory)) throw new ZipRefusedError('it holds no database');

  const staging = path.join(dataDir, `${PENDING_DIR}-${crypto.randomUUID()}`);
  fs.mkdirSync(staging);
  try {
    await zip.extractTo(staging);
    const { schemaVersion, servers } = inspectDatabase(path.join(staging, DATABASE_FILE), context.nativeBinding);
    const pending: PendingRestore = { from: context.from, stagedAt: context.now.toISOString(), schemaVersion, servers };
    fs.writeFileSync(path.join(staging, PENDING_FILE), JSON.stringify(pending));
    const target = path.join(dataDir, PENDING_DIR);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
    return pending;
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** The backup's database, read-only: healthy, and of a schema this Patchbay can open. */
function inspectDatabase(file: string, nativeBinding?: string): { schemaVersion: number; servers: number } {
  let db: Database.Database | undefined;
  try {
    const head = Buffer.alloc(16);
    const fd = fs.openSync(file, 'r');
    fs.readSync(fd, head, 0, 16, 0);
    fs.closeSync(fd);
    if (head.toString('latin1') !== 'SQLite format 3\0') throw new ZipRefusedError('its database is not an SQLite database');
    db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding });
    if (db.pragma('quick_check', { simple: true }) !== 'ok') throw new ZipRefusedError('its database is damaged');
    const schemaVersion = readSchemaVersion(db);
    if (schemaVersion > MIGRATIONS.length) {
      throw new ZipRefusedError(`it was made by a newer Patchbay (schema ${schemaVersion}; this one knows up to ${MIGRATIONS.length})`);
    }
    const servers = schemaVersion >= 2 ? (db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM servers').get()?.n ?? 0) : 0;
    return { schemaVersion, servers };
  } catch (error) {
    if (error instanceof ZipRefusedError) throw error;
    throw new ZipRefusedError(`its database cannot be read (${(error as Error).message})`);
  } finally {
    db?.close();
  }
}

/** The restore waiting for the next start, if any. */
export function pendingRestore(dataDir: string): PendingRestore | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, PENDING_DIR, PENDING_FILE), 'utf8')) as PendingRestore;
  } catch {
    return undefined;
  }
}

export function cancelRestore(dataDir: string): void {
  fs.rmSync(path.join(dataDir, PENDING_DIR), { recursive: true, force: true });
}

/**
 * At start, before the database opens: swaps a staged restore in. Returns where the replaced data
 * went, or undefined when nothing was staged. A half-finished swap (a crash in the middle) is finished
 * at the next start: every step is a rename, and what was already moved stays where it went.
 */
export function applyPendingRestore(dataDir: string, now: Date): { from: string; previousDataIn: string } | undefined {
  const pending = pendingRestore(dataDir);
  if (!pending) {
    // Staging folders of a restore that never finished checking.
    for (const name of safeReaddir(dataDir))
      if (name.startsWith(`${PENDING_DIR}-`)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    return undefined;
  }
  const staged = path.join(dataDir, PENDING_DIR);
  const aside = path.join(dataDir, `before-restore-${now.toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(aside, { recursive: true });
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, ...BACKED_UP_PATHS]) {
    const current = path.join(dataDir, name);
    if (fs.existsSync(current)) fs.renameSync(current, path.join(aside, name));
  }
  for (const name of [DATABASE_FILE, ...BACKED_UP_PATHS]) {
    const from = path.join(staged, name);
    if (fs.existsSync(from)) fs.renameSync(from, path.join(dataDir, name));
  }
  fs.rmSync(staged, { recursive: true, force: true });
  return { from: pending.from, previousDataIn: aside };
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
