import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_PACKAGES } from '../../src-main/core/server-config/presets';
import { outsideAsar } from '../../src-main/core/server-config/packaged-path';
import { APP_FILES, EXTRA_RESOURCES, UNPACKED_FILES } from '../../src-main/desktop/runtime-files';
import { tempDir } from '../../src-main/test-support/temp-dir';
import config from '../../electron-builder.config.mjs';
import { buildIfNeeded } from '../build-if-needed.mjs';
import { electronVersion } from '../electron-binary.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

/** Sends `initialize` to a server on stdio and resolves with its first answer line (the process is killed after). */
function initialize(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: tempDir(), env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => finish(new Error(`no answer within 20 s; stderr: ${err.slice(0, 500)}`)), 20_000);
    const finish = (error?: Error, line?: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(line!);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"id":1'));
      if (line) finish(undefined, line);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => finish(new Error(`exited with ${code} before answering; stderr: ${err.slice(0, 500)}`)));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'layout-test', version: '1' } } })}\n`,
    );
  });
}

/**
 * The packaged app's layout, made by electron-builder with this configuration — the Electron binary
 * replaced by a stand-in folder (the real one cannot be downloaded here), the after-pack step (which
 * downloads better-sqlite3 for Electron) and the fuses (which edit the real binary) left out. Then the
 * preset servers are started the way the installed app starts them: from the unpacked side of the
 * archive, on a Node runtime (the app uses its own binary with ELECTRON_RUN_AS_NODE), with nothing
 * from the repository's node_modules.
 */
describe.skipIf(process.platform !== 'linux')('the packaged app (electron-builder --dir with this configuration)', () => {
  it('has the app in app.asar, the native module and the preset servers (with everything they load) unpacked, the window icon beside them', async () => {
    expect(buildIfNeeded(root)).toBe(true);
    const work = tempDir('patchbay-pack-');
    const fakeElectron = path.join(work, 'electron-dist');
    fs.mkdirSync(path.join(fakeElectron, 'resources'), { recursive: true });
    fs.writeFileSync(path.join(fakeElectron, 'electron'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const { build, Platform } = require('electron-builder') as typeof import('electron-builder');
    const output = path.join(work, 'release');
    await build({
      projectDir: root,
      targets: Platform.LINUX.createTarget(['dir']),
      publish: 'never',
      config: {
        ...config,
        electronDist: fakeElectron,
        electronVersion: electronVersion(root),
        afterPack: null,
        electronFuses: null,
        directories: { ...config.directories, output },
      },
    });

    const resources = path.join(output, 'linux-unpacked', 'resources');
    const { listPackage } = require('@electron/asar') as { listPackage(archive: string): string[] };
    const archived = new Set(listPackage(path.join(resources, 'app.asar')).map((entry) => entry.replace(/\\/g, '/')));
    for (const file of [...Object.values(APP_FILES), 'package.json']) expect(archived.has(`/${file}`), file).toBe(true);
    expect(fs.existsSync(path.join(resources, 'app.asar.unpacked', UNPACKED_FILES.sqlite))).toBe(true);
    expect(fs.existsSync(path.join(resources, EXTRA_RESOURCES.windowIcon.to))).toBe(true);
    expect(fs.existsSync(path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'deps'))).toBe(false);

    for (const name of PRESET_PACKAGES) {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(resources, 'app.asar.unpacked', 'node_modules', name, 'package.json'), 'utf8'),
      ) as { bin: string | Record<string, string> };
      const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
      // What the app resolves inside the archive, mapped the way presets.ts maps it.
      const entry = outsideAsar(path.join(resources, 'app.asar', 'node_modules', name, bin), resources);
      expect(entry.startsWith(path.join(resources, 'app.asar.unpacked'))).toBe(true);
      const args = name.endsWith('everything') ? ['stdio'] : name.endsWith('filesystem') ? [work] : [];
      const answer = await initialize(process.execPath, [entry, ...args], {
        MEMORY_FILE_PATH: path.join(work, 'memory.jsonl'),
        NODE_PATH: '',
      });
      expect(JSON.parse(answer), name).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: expect.any(String) } });
    }
  }, 240_000);
});
