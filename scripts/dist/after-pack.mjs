/**
 * electron-builder's after-pack step (electron-builder.config.mjs `afterPack`): puts better-sqlite3
 * built for the packaged Electron, platform and architecture into the app's unpacked side, replacing
 * the Node build electron-builder copied from node_modules. node_modules itself is never rebuilt (tests
 * and web mode keep using its Node build). A universal macOS app is merged from the two architecture
 * builds, which each went through here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronVersion } from '../electron-binary.mjs';
import { buildElectronSqlite } from '../electron-native.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** builder-util's Arch enum, by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];
/** Where the packaged app keeps it (src-main/desktop/runtime-files.ts `UNPACKED_FILES.sqlite`). */
export const SQLITE_BINDING = path.join('app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/** The resources folder of a packed app: inside the .app bundle on macOS, beside the executable elsewhere. */
export function resourcesDir(appOutDir, platform, productFilename) {
  return platform === 'darwin' || platform === 'mas'
    ? path.join(appOutDir, `${productFilename}.app`, 'Contents', 'Resources')
    : path.join(appOutDir, 'resources');
}

export default async function afterPack(context) {
  const arch = ARCH_NAMES[context.arch];
  if (arch === 'universal') return;
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const target = path.join(
    resourcesDir(context.appOutDir, context.electronPlatformName, context.packager.appInfo.productFilename),
    SQLITE_BINDING,
  );
  if (!fs.existsSync(target))
    throw new Error(
      `better-sqlite3 was not unpacked from the archive (${target} is missing): check asarUnpack in electron-builder.config.mjs`,
    );
  const version = electronVersion(root);
  const result = buildElectronSqlite({ root, version, platform, arch, outFile: target, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!result.ok) throw new Error(result.reason);
  console.log(`  • better-sqlite3 built for Electron ${version} ${platform}-${arch}`);
}
