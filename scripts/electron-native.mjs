import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronVersion } from './electron-binary.mjs';

const TARGET_DIR = '.electron-native';

/**
 * Makes an Electron-ABI build of better-sqlite3 in `.electron-native/`, apart from the Node build in
 * node_modules that tests and web mode use (both must coexist; the app passes this one to
 * better-sqlite3's `nativeBinding`). Tries the prebuilt binary first, then a source build against
 * Electron's headers. Both need the internet. Returns { ok, reason }.
 */
export function ensureElectronSqlite(root) {
  const version = electronVersion(root);
  const target = path.join(root, TARGET_DIR, 'better_sqlite3.node');
  const marker = path.join(root, TARGET_DIR, 'electron-version');
  if (fs.existsSync(target) && fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === version) return { ok: true };

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-sqlite-electron-'));
  try {
    const source = path.join(root, 'node_modules', 'better-sqlite3');
    for (const entry of ['package.json', 'binding.gyp', 'src', 'deps', 'lib']) {
      fs.cpSync(path.join(source, entry), path.join(work, entry), { recursive: true });
    }
    const electronFlags = [`--runtime=electron`, `--target=${version}`, `--arch=${process.arch}`];
    const prebuilt = spawnSync(process.execPath, [path.join(root, 'node_modules', 'prebuild-install', 'bin.js'), ...electronFlags], {
      cwd: work,
      stdio: 'inherit',
    });
    if (prebuilt.status !== 0) {
      const gyp = process.env.npm_config_node_gyp;
      const [command, args] = gyp ? [process.execPath, [gyp]] : ['npx', ['--yes', 'node-gyp']];
      const built = spawnSync(command, [...args, 'rebuild', '--release', ...electronFlags, '--dist-url=https://electronjs.org/headers'], {
        cwd: work,
        stdio: 'inherit',
      });
      if (built.status !== 0) return { ok: false, reason: `could not build better-sqlite3 for Electron ${version}` };
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), target);
    fs.writeFileSync(marker, version);
    return { ok: true };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
