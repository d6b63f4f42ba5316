import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronVersion } from './electron-binary.mjs';

const TARGET_DIR = '.electron-native';

/**
 * Builds better-sqlite3 for Electron `version` on `platform`/`arch` from the copy in node_modules,
 * in a temporary folder (node_modules keeps its Node build, which tests and web mode use), and
 * copies the binding to `outFile`. Tries the prebuilt binary first, then — for this platform only —
 * a source build against Electron's headers. Both need the internet. Returns { ok, reason }.
 */
export function buildElectronSqlite({ root, version, platform = process.platform, arch = process.arch, outFile, stdio = 'inherit' }) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-sqlite-electron-'));
  try {
    const source = path.join(root, 'node_modules', 'better-sqlite3');
    for (const entry of ['package.json', 'binding.gyp', 'src', 'deps', 'lib']) {
      fs.cpSync(path.join(source, entry), path.join(work, entry), { recursive: true });
    }
    const electronFlags = [`--runtime=electron`, `--target=${version}`, `--arch=${arch}`];
    const prebuilt = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules', 'prebuild-install', 'bin.js'), ...electronFlags, `--platform=${platform}`],
      {
        cwd: work,
        stdio,
      },
    );
    if (prebuilt.status !== 0) {
      if (platform !== process.platform)
        return {
          ok: false,
          reason: `no prebuilt better-sqlite3 for Electron ${version} on ${platform}-${arch} (and it cannot be compiled for another platform here)`,
        };
      const gyp = process.env.npm_config_node_gyp;
      const [command, args] = gyp ? [process.execPath, [gyp]] : ['npx', ['--yes', 'node-gyp']];
      const built = spawnSync(command, [...args, 'rebuild', '--release', ...electronFlags, '--dist-url=https://electronjs.org/headers'], {
        cwd: work,
        stdio,
      });
      if (built.status !== 0) return { ok: false, reason: `could not build better-sqlite3 for Electron ${version} on ${platform}-${arch}` };
    }
    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), outFile);
    return { ok: true };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Makes an Electron-ABI build of better-sqlite3 in `.electron-native/` for development runs (`npm
 * start`), apart from the Node build in node_modules; the app passes it to better-sqlite3's
 * `nativeBinding`. Kept until Electron's version changes. Returns { ok, reason }.
 */
export function ensureElectronSqlite(root) {
  const version = electronVersion(root);
  const target = path.join(root, TARGET_DIR, 'better_sqlite3.node');
  const marker = path.join(root, TARGET_DIR, 'electron-version');
  if (fs.existsSync(target) && fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === version) return { ok: true };
  const result = buildElectronSqlite({ root, version, outFile: target });
  if (result.ok) fs.writeFileSync(marker, version);
  return result;
}
