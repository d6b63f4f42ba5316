import fs from 'node:fs';
import path from 'node:path';

/**
 * better-sqlite3 must match the runtime's ABI. Tests and web mode use the Node build in node_modules;
 * Electron loads an Electron-ABI build kept apart in `.electron-native/` (made by
 * scripts/electron-native.mjs), so both can coexist. Returns undefined when there is none: the Node
 * build is then tried, and a mismatch fails with better-sqlite3's own message.
 */
export function electronSqliteBinding(appRoot: string): string | undefined {
  const candidate = path.join(appRoot, '.electron-native', 'better_sqlite3.node');
  return fs.existsSync(candidate) ? candidate : undefined;
}
