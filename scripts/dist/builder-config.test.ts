import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_EXTENSION, PROTOCOL_SCHEME } from '@contract';
import { PRESET_PACKAGES } from '../../src-main/core/server-config/presets';
import { APP_FILES, EXTRA_RESOURCES, UNPACKED_FILES } from '../../src-main/desktop/runtime-files';
import { tempDir } from '../../src-main/test-support/temp-dir';
import config, { PRESET_PACKAGES as CONFIG_PRESETS } from '../../electron-builder.config.mjs';
import { electronArtifacts, parseDistArgs } from '../dist.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, debug: { isEnabled: boolean; add(): void }): Promise<void>;
};
const { FileMatcher } = require('app-builder-lib/out/fileMatcher.js') as {
  FileMatcher: new (
    from: string,
    to: string,
    expand: (s: string) => string,
    patterns: string[],
  ) => { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean };
};

const validate = (candidate: unknown) => validateConfiguration(candidate, { isEnabled: false, add: () => undefined });
/** Whether electron-builder's own matcher, with these patterns, takes a file (path relative to the app). */
function matches(patterns: string[], relative: string): boolean {
  return new FileMatcher(root, root, (s) => s, patterns).createFilter()(path.join(root, relative), { isDirectory: () => false });
}
/** Whether a file under node_modules is packed: electron-builder applies only the exclusions of `files` there. */
function packedDependency(relative: string): boolean {
  return matches(['**/*', ...(config.files as string[]).filter((p) => p.startsWith('!'))], relative);
}
/** A preset package's entry file, relative to the project. */
function presetEntry(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return path.posix.join('node_modules', name, bin);
}

describe('electron-builder.config.mjs', () => {
  it('is valid by electron-builder’s own schema (and the check does catch a mistake)', async () => {
    await expect(validate(config)).resolves.toBeUndefined();
    await expect(validate({ ...config, fileAssociation: config.fileAssociations })).rejects.toThrow(/unknown property 'fileAssociation'/);
    await expect(validate({ ...config, linux: { ...config.linux, targets: ['AppImage'] } })).rejects.toThrow(/configuration\.linux/);
  });

  it('ships every file the main process loads: the bundles in the archive, native code unpacked, the icon beside it', () => {
    const files = config.files as string[];
    for (const file of Object.values(APP_FILES)) expect(matches(files, file), file).toBe(true);
    for (const file of ['src-main/index.ts', 'e2e/web/smoke.spec.ts', 'out/.build-stamp', 'resources/icon.svg'])
      expect(matches(files, file), file).toBe(false);
    expect(matches(config.asarUnpack as string[], UNPACKED_FILES.sqlite)).toBe(true);
    expect(packedDependency(UNPACKED_FILES.sqlite)).toBe(true); // not excluded with better-sqlite3's sources
    expect(packedDependency('node_modules/better-sqlite3/lib/index.js')).toBe(true);
    expect(packedDependency('node_modules/better-sqlite3/deps/sqlite3/sqlite3.c')).toBe(false);
    expect(config.extraResources).toContainEqual(EXTRA_RESOURCES.windowIcon);
    expect(fs.existsSync(path.join(root, EXTRA_RESOURCES.windowIcon.from))).toBe(true);
  });

  it('unpacks the preset servers and what they load, so the app’s runtime can start them from real files', () => {
    expect([...CONFIG_PRESETS].sort()).toEqual([...PRESET_PACKAGES].sort());
    const unpack = config.asarUnpack as string[];
    for (const name of PRESET_PACKAGES) {
      expect(matches(unpack, presetEntry(name)), name).toBe(true);
      // A dependency each of them imports at run time.
      expect(matches(unpack, 'node_modules/@modelcontextprotocol/sdk/package.json')).toBe(true);
    }
    expect(matches(unpack, 'out/main/index.js')).toBe(false); // the app itself stays in the archive
  });

  it('registers patchbay:// and .mcpb, never uses the repository’s node_modules build of SQLite, and points at files that exist', () => {
    expect(config.protocols).toEqual([{ name: 'Patchbay link', schemes: [PROTOCOL_SCHEME] }]);
    expect((config.fileAssociations as { ext: string }[]).map((a) => `.${a.ext}`)).toEqual([BUNDLE_EXTENSION]);
    expect(config.npmRebuild).toBe(false);
    // Presets run on the app's binary in Node mode; NODE_OPTIONS loads nothing into it; app.asar is checked at start.
    expect(config.electronFuses).toMatchObject({
      runAsNode: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableEmbeddedAsarIntegrityValidation: true,
    });
    const referenced = [
      config.afterPack as string,
      config.linux!.icon!,
      config.mac!.icon!,
      config.mac!.entitlements!,
      config.mac!.entitlementsInherit!,
      config.win!.icon!,
      ...(config.deb!.fpm ?? []).map((mapping) => mapping.split('=')[0]),
    ];
    for (const file of referenced) expect(fs.existsSync(path.resolve(root, file)), file).toBe(true);
    for (const size of [16, 32, 48, 256, 512])
      expect(fs.existsSync(path.join(root, config.linux!.icon!, `${size}x${size}.png`))).toBe(true);
  });

  it('the .deb depends on bubblewrap (the servers’ sandbox) and keeps electron-builder’s own dependencies', () => {
    expect(config.deb!.depends).toEqual(expect.arrayContaining(['bubblewrap', 'libgtk-3-0', 'libnss3', 'libsecret-1-0']));
  });

  it('the desktop entry in resources/ says what the builder derives: its MimeType, category and extra keys', () => {
    const text = fs.readFileSync(path.join(root, 'resources', 'linux', 'patchbay.desktop'), 'utf8');
    const key = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1];
    const derived = [...(config.fileAssociations as { mimeType: string }[]).map((a) => a.mimeType), `x-scheme-handler/${PROTOCOL_SCHEME}`];
    expect(key('MimeType')!.split(';').filter(Boolean).sort()).toEqual(derived.sort());
    expect(key('Categories')).toBe(`${config.linux!.category};`);
    expect(config.linux!.desktop!.entry).toMatchObject({ GenericName: key('GenericName'), Keywords: key('Keywords') });
    expect(config.linux!.desktop!.entry).not.toHaveProperty('Exec'); // electron-builder refuses it: it writes Exec per target
  });
});

describe('npm run dist', () => {
  it('reads its options and knows which Electron downloads each platform needs', () => {
    expect(parseDistArgs([], 'linux')).toEqual({ platforms: ['linux'], dirOnly: false });
    expect(parseDistArgs(['--mac', '--win', '--dir'], 'linux')).toEqual({ platforms: ['mac', 'win'], dirOnly: true });
    expect(() => parseDistArgs(['--publish'], 'linux')).toThrow('unknown option --publish');
    expect(electronArtifacts(['mac', 'win'])).toEqual([
      { platform: 'darwin', arch: 'x64' },
      { platform: 'darwin', arch: 'arm64' },
      { platform: 'win32', arch: 'x64' },
    ]);
  });

  it('without the Electron binary says so in one line, exits non-zero, and builds nothing', async () => {
    // A port nothing listens on stands for a machine without access to Electron's downloads.
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const release = path.join(root, 'release');
    const before = fs.existsSync(release) ? fs.readdirSync(release).sort() : null;
    const outStamp = fs.existsSync(path.join(root, 'out')) ? fs.statSync(path.join(root, 'out')).mtimeMs : null;
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'dist.mjs'), '--linux'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_MIRROR: `http://127.0.0.1:${closed}/`, ELECTRON_BUILDER_CACHE: tempDir() },
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^patchbay dist: cannot build installers: the Electron \d+\.\d+\.\d+ binary for linux-(x64|arm64) could not be downloaded \(.*ECONNREFUSED.*\); nothing was built\.$/,
    );
    expect(fs.existsSync(release) ? fs.readdirSync(release).sort() : null).toEqual(before);
    expect(fs.existsSync(path.join(root, 'out')) ? fs.statSync(path.join(root, 'out')).mtimeMs : null).toBe(outStamp);
  });
});
