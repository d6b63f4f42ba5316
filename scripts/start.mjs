/**
 * `npm start`: build if needed, then open the Electron app. Where the Electron binary is missing and
 * cannot be fetched (as on machines without GitHub access), say so in one line and start web mode.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { installedElectronBinary } from './electron-binary.mjs';
import { ensureElectronSqlite } from './electron-native.mjs';
import { runChild } from './run-child.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const passThrough = process.argv.slice(2);

function startWeb(reason) {
  console.log(`patchbay: ${reason}; starting web mode instead (npm run web).`);
  runChild(process.execPath, [path.join(root, 'out', 'main', 'web.js'), ...passThrough], { cwd: root });
}

if (!buildIfNeeded(root)) process.exit(1);

let binary = installedElectronBinary(root);
if (!binary && process.env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '1') {
  // electron is installed with its install script disabled (package.json allowScripts): fetch on demand.
  const install = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 5 * 60_000,
    encoding: 'utf8',
  });
  binary = installedElectronBinary(root);
  if (!binary) {
    const detail = (install.stderr || '')
      .split('\n')
      .find((line) => /error|fail/i.test(line))
      ?.trim();
    startWeb(`the Electron binary is not installed and could not be downloaded${detail ? ` (${detail.slice(0, 120)})` : ''}`);
  }
} else if (!binary) {
  startWeb('the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1)');
}

if (binary) {
  const sqlite = ensureElectronSqlite(root);
  if (!sqlite.ok) startWeb(`the Electron app needs better-sqlite3 built for Electron, but ${sqlite.reason}`);
  else {
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE; // inherited from a parent tool, it would turn the app into plain Node
    runChild(binary, ['.', ...passThrough], { cwd: root, env });
  }
}
