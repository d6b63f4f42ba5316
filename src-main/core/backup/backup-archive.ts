/**
 * A full backup: one zip in `backups/` holding a consistent copy of the database (SQLite's online
 * backup API, taken while Patchbay runs), the installed bundles (`bundles/`), the Filesystem preset's
 * folder (`files/`), the Memory preset's graph (`memory.jsonl`), and `backup.json` describing it.
 *
 * Not in it: `secrets.key` and the system keychain entry. Secret values stay sealed inside the database
 * copy, so a backup never holds a secret anyone can read; restored on this installation they open as
 * before, restored elsewhere they must be entered again. Also not in it: logs, the web session key,
 * window state, earlier backups.
 */
import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SCRATCH_DIR } from '../data-dir';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { BackupInfo } from '@contract';
import { backupDatabase, DATABASE_FILE } from '../store/database';
import { readSchemaVersion } from '../store/migrations';

export const BACKUPS_DIR = 'backups';
export const BACKUP_MANIFEST = 'backup.json';
/** What a backup carries besides the database, as paths in the data directory. */
export const BACKED_UP_PATHS = ['bundles', 'files', 'memory.jsonl'] as const;

/** `backup.json`. */
export interface BackupManifest {
  format: 'patchbay-backup';
  version: 1;
  createdAt: string;
  app: string;
  schemaVersion: number;
  includes: string[];
  secrets: string;
}

/** Writes a full backup into `<dataDir>/backups/` and says where. */
export async function createBackup(
  db: Database.Database,
  dataDir: string,
  context: { appVersion: string; now: Date },
): Promise<BackupInfo> {
  const dir = path.join(dataDir, BACKUPS_DIR);
  const tmp = path.join(dataDir, SCRATCH_DIR);
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(tmp, { recursive: true });
  const stamp = context.now.toISOString().replace(/[:.]/g, '-');
  const name = `patchbay-backup-${stamp}.zip`;
  const copy = path.join(tmp, `backup-${crypto.randomUUID()}.db`);
  const partial = path.join(dir, `${name}.part`);
  try {
    await backupDatabase(db, copy);
    const manifest: BackupManifest = {
      format: 'patchbay-backup',
      version: 1,
      createdAt: context.now.toISOString(),
      app: context.appVersion,
      schemaVersion: readSchemaVersion(db),
      includes: [DATABASE_FILE, ...BACKED_UP_PATHS.filter((item) => fs.existsSync(path.join(dataDir, item)))],
      secrets:
        'Not included. Secret values are sealed in the database and open only with the key of the installation that sealed them (secrets.key or the system keychain): restored elsewhere, they must be entered again.',
    };
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), BACKUP_MANIFEST);
    zip.addFile(copy, DATABASE_FILE);
    for (const item of BACKED_UP_PATHS) addTree(zip, dataDir, item);
    zip.end();
    await pipeline(zip.outputStream, fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, path.join(dir, name));
  } finally {
    fs.rmSync(copy, { force: true });
    fs.rmSync(partial, { force: true });
  }
  return describeBackup(dir, name)!;
}

/** Adds a file or folder of the data directory (plain files and folders only; links are left out). */
function addTree(zip: yazl.ZipFile, dataDir: string, relative: string): void {
  const full = path.join(dataDir, relative);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(full);
  } catch {
    return;
  }
  const name = relative.split(path.sep).join('/');
  if (stat.isFile()) zip.addFile(full, name, { mode: stat.mode & 0o100 ? 0o100755 : 0o100644 });
  else if (stat.isDirectory()) {
    zip.addEmptyDirectory(name);
    for (const child of fs.readdirSync(full)) addTree(zip, dataDir, path.join(relative, child));
  }
}

/** The backups in `backups/`, newest first. */
export function listBackups(dataDir: string): BackupInfo[] {
  const dir = path.join(dataDir, BACKUPS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.zip'));
  } catch {
    return [];
  }
  return names
    .map((name) => describeBackup(dir, name))
    .filter((info): info is BackupInfo => info !== undefined)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

function describeBackup(dir: string, name: string): BackupInfo | undefined {
  try {
    const stat = fs.statSync(path.join(dir, name));
    return { name, path: path.join(dir, name), bytes: stat.size, createdAt: stat.mtime.toISOString() };
  } catch {
    return undefined;
  }
}
