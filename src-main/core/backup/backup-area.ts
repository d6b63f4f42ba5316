import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { HostCallError, type backupMethods, type BackupState, type HandlersFor } from '@contract';
import type { Clock } from '../clock';
import { ZipRefusedError } from '../safe-zip';
import type { ServerConfigRepository } from '../server-config/server-config-repository';
import type { UploadSessions } from '../uploads/upload-sessions';
import { BACKUPS_DIR, createBackup, listBackups } from './backup-archive';
import { exportServers } from './export-servers';
import { cancelRestore, pendingRestore, stageRestore } from './restore-backup';

export interface BackupAreaDeps {
  db: Database.Database;
  dataDir: string;
  appVersion: string;
  clock: Clock;
  repo: ServerConfigRepository;
  uploads: UploadSessions;
  nativeBinding?: string;
  /** Restarts the desktop app (finishing a staged restore); web mode has none. */
  relaunch?: () => void;
  /** The installed version of a bundle, for exports. */
  bundleVersion?: (id: string) => string | undefined;
  /** Tool sets, for Patchbay's own export format (members named by server name). */
  toolSets?: () => unknown[];
}

/** Export, full backups, and restoring them (staged, finished at the next start). */
export function createBackupHandlers(deps: BackupAreaDeps): HandlersFor<typeof backupMethods> {
  const state = (): BackupState => {
    const pending = pendingRestore(deps.dataDir);
    return {
      directory: path.join(deps.dataDir, BACKUPS_DIR),
      backups: listBackups(deps.dataDir),
      ...(pending ? { pendingRestore: pending } : {}),
      canRestart: deps.relaunch !== undefined,
    };
  };

  return {
    exportServers: async ({ format }) => {
      const exported = exportServers(format, deps.repo.list(), {
        dataDir: deps.dataDir,
        appVersion: deps.appVersion,
        now: deps.clock.now(),
      });
      if (format !== 'patchbay') return exported;
      // Name the installed version of each bundle a server runs; add the tool sets.
      const document = JSON.parse(exported.text) as { servers: { bundle?: { id: string; version: string } }[]; toolSets?: unknown[] };
      for (const server of document.servers) if (server.bundle) server.bundle.version = deps.bundleVersion?.(server.bundle.id) ?? '';
      const toolSets = deps.toolSets?.() ?? [];
      if (toolSets.length > 0) document.toolSets = toolSets;
      return { ...exported, text: `${JSON.stringify(document, null, 2)}\n` };
    },

    getBackupState: async () => state(),

    createBackup: async () => {
      try {
        return await createBackup(deps.db, deps.dataDir, { appVersion: deps.appVersion, now: deps.clock.now() });
      } catch (error) {
        throw new HostCallError('storage', `The backup could not be written: ${(error as Error).message}`);
      }
    },

    stageRestore: async (input) => {
      let file: string;
      let from: string;
      let owned = false;
      if ('backup' in input) {
        // Only a backup in backups/, by its plain file name.
        if (path.basename(input.backup) !== input.backup || !input.backup.endsWith('.zip')) {
          throw new HostCallError('invalid_input', 'Choose one of the backups listed');
        }
        file = path.join(deps.dataDir, BACKUPS_DIR, input.backup);
        if (!fs.existsSync(file)) throw new HostCallError('invalid_input', `There is no backup named ${input.backup}`);
        from = input.backup;
      } else {
        const upload = deps.uploads.take(input.uploadId, 'backup');
        file = upload.file;
        from = upload.fileName;
        owned = true;
      }
      try {
        await stageRestore(deps.dataDir, file, { from, now: deps.clock.now(), nativeBinding: deps.nativeBinding });
      } catch (error) {
        if (error instanceof ZipRefusedError)
          throw new HostCallError('invalid_input', `This backup cannot be restored: ${error.message}. Nothing was changed.`);
        throw error;
      } finally {
        if (owned) fs.rmSync(file, { force: true });
      }
      return state();
    },

    cancelRestore: async () => {
      cancelRestore(deps.dataDir);
      return state();
    },

    restartApp: async () => {
      if (!deps.relaunch) throw new HostCallError('forbidden', 'Web mode cannot restart itself: stop Patchbay and start it again');
      // After the answer has gone out: the relaunch quits this process.
      setTimeout(() => deps.relaunch?.(), 50);
    },
  };
}

/** The backup area: backups, restores, and Patchbay's own export format. */
export function createBackupArea(deps: BackupAreaDeps) {
  return { name: 'backup', handlers: createBackupHandlers(deps) } as const;
}
