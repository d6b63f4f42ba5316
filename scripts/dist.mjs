/**
 * `npm run dist [-- --linux --mac --win --dir]`: installers for this platform (or the ones named) with
 * electron-builder.config.mjs — AppImage and .deb, a universal .dmg (+ .zip for updates), NSIS.
 * `--dir` makes the unpacked app only (quick; what the packaged-app smoke test runs).
 *
 * First it makes sure the Electron binaries it needs can be had (electron-builder's own cache, else
 * a download): where they cannot — no access to GitHub, as on some build machines — it says so in one
 * line and exits 1 before anything is built. The installers are built into a staging folder and moved
 * into release/ only when everything succeeded, so a failure never leaves half-built output.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { electronVersion } from './electron-binary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const PREFIX = 'patchbay dist:';
/** How long one Electron download may take before it counts as unavailable. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

const HOST = { linux: 'linux', darwin: 'mac', win32: 'win' }[process.platform];

/** Which platforms to build, and whether only the unpacked app. */
export function parseDistArgs(argv, host = HOST) {
  const platforms = new Set();
  let dirOnly = false;
  for (const arg of argv) {
    if (arg === '--linux' || arg === '--mac' || arg === '--win') platforms.add(arg.slice(2));
    else if (arg === '--dir') dirOnly = true;
    else throw new Error(`unknown option ${arg} (use --linux, --mac, --win, --dir)`);
  }
  if (platforms.size === 0) {
    if (!host) throw new Error(`no installers for ${process.platform}; name a platform (--linux, --mac, --win)`);
    platforms.add(host);
  }
  return { platforms: [...platforms], dirOnly };
}

/** The Electron downloads a build needs: the universal macOS app is merged from both architectures. */
export function electronArtifacts(platforms, hostArch = process.arch) {
  const linuxArch = process.platform === 'linux' && hostArch === 'arm64' ? 'arm64' : 'x64';
  return platforms.flatMap((platform) =>
    platform === 'mac'
      ? [
          { platform: 'darwin', arch: 'x64' },
          { platform: 'darwin', arch: 'arm64' },
        ]
      : [{ platform: platform === 'win' ? 'win32' : 'linux', arch: platform === 'linux' ? linuxArch : 'x64' }],
  );
}

/** Fetches one Electron zip into electron-builder's cache (or finds it there); rejects with the reason. */
async function fetchElectron({ platform, arch }, version) {
  const { downloadElectronArtifactZip } = require('app-builder-lib/out/util/electronGet.js');
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DOWNLOAD_TIMEOUT_MS / 60_000} minutes`)), DOWNLOAD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      downloadElectronArtifactZip({
        electronDownload: { platform, arch, version },
        artifactName: 'electron',
        platformName: platform,
        arch,
        version,
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function fail(message) {
  console.error(`${PREFIX} ${message}`);
  process.exit(1);
}

/** Moves what the staging folder holds into release/, entry by entry, replacing older ones of the same name. */
function moveIntoPlace(staging, output) {
  const moved = [];
  for (const entry of fs.readdirSync(staging)) {
    const target = path.join(output, entry);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(path.join(staging, entry), target);
    moved.push(entry);
  }
  fs.rmSync(staging, { recursive: true, force: true });
  return moved;
}

async function main() {
  let options;
  try {
    options = parseDistArgs(process.argv.slice(2));
  } catch (error) {
    fail(error.message);
  }
  process.chdir(root);
  const version = electronVersion(root);

  // 1. The Electron binaries, before anything is built (so a machine without them changes nothing).
  for (const artifact of electronArtifacts(options.platforms)) {
    try {
      await fetchElectron(artifact, version);
    } catch (error) {
      const reason = String(error?.message ?? error)
        .split('\n', 1)[0]
        .slice(0, 200);
      fail(
        `cannot build installers: the Electron ${version} binary for ${artifact.platform}-${artifact.arch} could not be downloaded (${reason}); nothing was built.`,
      );
    }
  }

  // 2. The app itself (electron-vite), when any source is newer than out/.
  if (!buildIfNeeded(root)) fail('the build failed (see above); nothing was packaged.');

  // 3. The installers, into a staging folder moved into release/ only on success.
  const { build, Platform } = require('electron-builder');
  const { default: config } = await import(path.join(root, 'electron-builder.config.mjs'));
  const output = path.join(root, config.directories.output);
  const staging = path.join(output, `.staging-${process.pid}`);
  const cleanUp = () => fs.rmSync(staging, { recursive: true, force: true });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
  const platformOf = { linux: Platform.LINUX, mac: Platform.MAC, win: Platform.WINDOWS };
  const targets = new Map();
  for (const platform of options.platforms) {
    for (const [key, value] of platformOf[platform].createTarget(options.dirOnly ? ['dir'] : undefined)) targets.set(key, value);
  }
  try {
    fs.mkdirSync(output, { recursive: true });
    await build({
      projectDir: root,
      targets,
      publish: 'never',
      config: { ...config, directories: { ...config.directories, output: staging } },
    });
  } catch (error) {
    cleanUp();
    const reason = String(error?.message ?? error)
      .split('\n', 1)[0]
      .slice(0, 300);
    fail(`electron-builder failed: ${reason}; nothing was written to ${path.relative(root, output)}/.`);
  }
  const moved = moveIntoPlace(staging, output);
  console.log(`${PREFIX} built ${moved.join(', ')} in ${path.relative(root, output)}/`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
