import fs from 'node:fs';
import path from 'node:path';
import { packagedSqliteBinding } from '../desktop/runtime-files';

/**
 * better-sqlite3 must match the runtime's ABI. Tests and web mode use the Node build in node_modules;
 * a development run of the app loads an Electron-ABI build kept apart in `.electron-native/` (made by
 * scripts/electron-native.mjs), so both can coexist. The installed app loads the build electron-builder
 * unpacked from the archive (replaced by the Electron build in scripts/dist/after-pack.mjs). Returns
 * undefined when there is none: the Node build is then tried, and a mismatch fails with
 * better-sqlite3's own message.
 */
export function electronSqliteBinding(where: { isPackaged: boolean; resourcesPath: string; appRoot: string }): string | undefined {
  const candidate = where.isPackaged
    ? packagedSqliteBinding(where.resourcesPath)
    : path.join(where.appRoot, '.electron-native', 'better_sqlite3.node');
  return fs.existsSync(candidate) ? candidate : undefined;
}
