import { z } from 'zod';
import { IdString, method, NoInput } from './method';

/**
 * Taking servers and data elsewhere and back. Export writes the server configurations as text — never
 * a secret: secret values are left out and marked as to be filled. A full backup is one zip in the
 * data directory's `backups/` with a consistent copy of the database (SQLite's backup API) and the
 * files servers keep there; restoring one is staged and finished when Patchbay starts next.
 */

export const EXPORT_FORMATS = ['patchbay', 'claude-desktop', 'vscode'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An export, ready to save. */
export interface ServersExport {
  format: ExportFormat;
  /** `patchbay-servers.json`, `claude_desktop_config.json`, `mcp.json`. */
  fileName: string;
  text: string;
  servers: number;
  /** `server: KEY` for every secret left out (to be filled after restoring or importing). */
  secretsLeftOut: string[];
  /** Servers another host cannot run as they are (e.g. a bundle), with why. */
  notes: string[];
}

/** One backup file in `backups/`. */
export interface BackupInfo {
  /** The file name (what `stageRestore` takes). */
  name: string;
  path: string;
  bytes: number;
  createdAt: string;
}

/** A restore waiting for the next start. */
export interface PendingRestore {
  from: string;
  stagedAt: string;
  /** Schema version and servers of the backup, for the notice. */
  schemaVersion: number;
  servers: number;
}

export interface BackupState {
  /** Where backups are written. */
  directory: string;
  backups: BackupInfo[];
  pendingRestore?: PendingRestore;
  /** Whether `restartApp` can restart Patchbay itself (the desktop app); in web mode you start it again. */
  canRestart: boolean;
}

const ExportSchema = z.object({ format: z.enum(EXPORT_FORMATS) });
const StageRestoreSchema = z.union([z.object({ backup: z.string().trim().min(1).max(255) }), z.object({ uploadId: IdString })]);

export const backupMethods = {
  /** The server configurations in one of three formats, secrets left out. */
  exportServers: method<typeof ExportSchema, ServersExport>(ExportSchema),
  getBackupState: method<typeof NoInput, BackupState>(NoInput),
  /** Writes a full backup now. */
  createBackup: method<typeof NoInput, BackupInfo>(NoInput),
  /**
   * Checks a backup and stages it; Patchbay swaps it in at its next start (the current data is moved
   * aside, not deleted). Refused with the reason when the file is not a usable backup.
   */
  stageRestore: method<typeof StageRestoreSchema, BackupState>(StageRestoreSchema),
  /** Forgets a staged restore. */
  cancelRestore: method<typeof NoInput, BackupState>(NoInput),
  /** The desktop app: quits and starts again (finishing a staged restore). Web mode: refused. */
  restartApp: method<typeof NoInput, void>(NoInput),
};
