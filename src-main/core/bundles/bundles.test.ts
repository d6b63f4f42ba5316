import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostApi, InstallPlan } from '@contract';
import { handMadeBundle, listFiles, packBundle, renameZipEntry } from '../../test-support/bundle-fixtures';
import { FIXTURES_DIR } from '../../test-support/fixtures';
import { startTestHost } from '../../test-support/test-host';
import { uploadFile } from '../../test-support/uploads';
import { waitFor } from '../servers/wait';

async function open(api: HostApi, file: string): Promise<InstallPlan> {
  return api.openBundle({ uploadId: await uploadFile(api, 'bundle', file) });
}

async function readyServer(api: HostApi, id: string) {
  await waitFor(async () => (await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
    timeoutMs: 30_000,
    what: 'the bundle server to be ready',
  });
}

async function toolText(api: HostApi, serverId: string, tool: string): Promise<string> {
  return JSON.stringify(await api.runTool({ serverId, tool, args: {} }));
}

/** The data directory's files, leaving out the database and the logs (which change on their own). */
const dataFiles = (dataDir: string) => listFiles(dataDir).filter((file) => !/^patchbay\.db|^logs[/\\]|secrets\.key$/.test(file));

describe('bundles: install, run, update, remove', () => {
  it('shows the manifest and the settings it needs, installs into bundles/<id>/ and the tool runs on Patchbay’s own Node', async () => {
    const { api, dataDir } = startTestHost();
    const plan = await open(api, packBundle('notes'));
    expect(plan.about.title).toBe('Notes (bundle)');
    expect(plan.about.facts).toEqual(
      expect.arrayContaining([
        { label: 'Id', value: 'notes-bundle' },
        { label: 'Version', value: '1.0.0' },
        { label: 'Author', value: 'Patchbay tests <tests@example.com>' },
        { label: 'Signature', value: 'Not signed' },
        { label: 'Tools', value: 'greet, runtime' },
        { label: 'Compatibility', value: 'darwin, linux, win32; Node.js >=18.0.0' },
      ]),
    );
    expect(plan.fields.map((f) => [f.label, f.kind, f.required, f.default])).toEqual([
      ['Greeting', 'string', true, undefined],
      ['Repeat', 'number', false, 1],
      ['Notes folder', 'directory', false, os.homedir()],
      ['Shout', 'boolean', false, false],
    ]);
    const bundleDir = path.join(dataDir, 'bundles', 'notes-bundle');
    // A required setting still empty: its argument is left out of the preview until it is filled.
    expect(plan.preview.commandLine).toBe(`node ${path.join(bundleDir, 'server', 'index.mjs')} --greeting`);
    expect(plan.preview.missing).toEqual(['Greeting']);
    expect(plan.startByDefault).toBe(true);
    // Opening wrote nothing.
    expect(fs.existsSync(path.join(dataDir, 'bundles'))).toBe(false);

    await expect(api.install({ source: plan.source, values: { repeat: 9 } })).rejects.toThrow(
      'Fill in Greeting, Repeat (from 1 to 5) first',
    );
    const values = { greeting: 'Hello', repeat: 2, loud: true, folder: '/tmp' };
    const view = await api.install({ source: plan.source, values, start: true });
    expect(view.config).toMatchObject({ name: 'Notes (bundle)', bundleId: 'notes-bundle', command: 'node' });
    expect(fs.existsSync(path.join(bundleDir, 'manifest.json'))).toBe(true);
    await readyServer(api, view.config.id);
    expect(await toolText(api, view.config.id, 'greet')).toContain('HELLO HELLO (notes in /tmp)');
    expect(await toolText(api, view.config.id, 'runtime')).toContain(JSON.stringify(process.execPath).slice(1, -1));
    // The bundle's token is spent.
    await expect(api.install({ source: plan.source, values })).rejects.toThrow('That bundle is no longer open: open it again');
    expect(listFiles(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  it('updates a bundle with the same id in place, keeping its settings, and removes its files with its server', async () => {
    const { api, dataDir } = startTestHost();
    const first = await open(api, packBundle('notes'));
    const installed = await api.install({ source: first.source, values: { greeting: 'Hi', repeat: 3 }, start: true });
    await readyServer(api, installed.config.id);

    const update = await open(api, packBundle('notes', { manifest: (m) => (m.version = '1.1.0') }));
    expect(update.updates).toEqual({ serverId: installed.config.id, name: 'Notes (bundle)' });
    expect(update.suggestedName).toBe('Notes (bundle)');
    expect(update.fields.find((f) => f.id === 'greeting')?.default).toBe('Hi');
    expect(update.fields.find((f) => f.id === 'repeat')?.default).toBe(3);
    const updated = await api.install({ source: update.source, values: {}, start: true });
    expect(updated.config.id).toBe(installed.config.id);
    expect((await api.getSnapshot()).servers).toHaveLength(1);
    await waitFor(async () => (await toolText(api, installed.config.id, 'greet').catch(() => '')).includes('Hi Hi Hi'), {
      timeoutMs: 30_000,
      what: 'the updated bundle to answer with the kept settings',
    });
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'bundles', 'notes-bundle', 'manifest.json'), 'utf8')).version).toBe('1.1.0');

    await api.removeServer({ id: installed.config.id });
    expect(fs.existsSync(path.join(dataDir, 'bundles', 'notes-bundle'))).toBe(false);
    // Installed again, it starts from the manifest's defaults: the settings went with the server.
    const again = await open(api, packBundle('notes'));
    expect(again.updates).toBeUndefined();
    expect(again.fields.find((f) => f.id === 'greeting')?.default).toBeUndefined();
  });

  it('seals a sensitive value: never in SQLite, filled into the argument only at launch, kept when an update leaves it empty', async () => {
    const { api, dataDir } = startTestHost();
    const plan = await open(api, packBundle('secret-key'));
    expect(plan.fields.find((f) => f.id === 'api_key')).toMatchObject({ label: 'API key', secret: true, required: true });
    const key = `sk-live-${crypto.randomUUID()}`;
    const preview = await api.previewInstall({ source: plan.source, values: { api_key: key } });
    expect(JSON.stringify(preview)).not.toContain(key);
    expect(preview.commandLine).toContain('--key=${user_config.api_key}');
    expect(preview.env).toEqual([
      { key: 'API_KEY', secret: true },
      { key: 'ACCOUNT', secret: false, value: '' },
    ]);
    const view = await api.install({ source: plan.source, values: { api_key: key, account: 'ada' }, start: true });
    await readyServer(api, view.config.id);
    expect(await toolText(api, view.config.id, 'check_key')).toContain(`env key ${key}; argument key ${key}; account ada`);
    for (const file of listFiles(dataDir).filter((f) => f.startsWith('patchbay.db'))) {
      expect(fs.readFileSync(path.join(dataDir, file)).includes(key), file).toBe(false);
    }
    expect(JSON.stringify(await api.getSnapshot())).not.toContain(key);

    const update = await open(api, packBundle('secret-key', { manifest: (m) => (m.version = '2.0.1') }));
    expect(update.fields.find((f) => f.id === 'api_key')).toMatchObject({ stored: true, secret: true });
    expect(update.preview.missing).toEqual([]);
    await api.install({ source: update.source, values: {}, start: true });
    await waitFor(
      async () => (await toolText(api, view.config.id, 'check_key').catch(() => '')).includes(`argument key ${key}; account ada`),
      {
        timeoutMs: 30_000,
        what: 'the updated bundle to keep its key',
      },
    );
  });
});

describe('bundles: refused, nothing written', () => {
  async function expectRefused(api: HostApi, dataDir: string, file: string, reason: string | RegExp) {
    const before = dataFiles(dataDir);
    const error = await open(api, file).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(typeof reason === 'string' ? new RegExp(reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : reason);
    expect(error?.message).toMatch(/^This bundle was refused: .*\. Nothing was installed\.$/);
    expect(dataFiles(dataDir)).toEqual(before);
    expect((await api.getSnapshot()).servers).toEqual([]);
  }

  it('refuses a path escaping the bundle (zip slip), a zip bomb, a bad manifest, a missing entry point and another platform', async () => {
    const { api, dataDir } = startTestHost();
    const hostile = packBundle('hostile');
    renameZipEntry(hostile, 'zz/escape.txt', '../escape.txt');
    await expectRefused(api, dataDir, hostile, 'it holds a path that escapes the bundle');
    expect(fs.existsSync(path.join(dataDir, '..', 'escape.txt'))).toBe(false);

    const bomb = packBundle('oversized', { files: { 'data/zeros.bin': Buffer.alloc(40 * 1024 * 1024) } });
    expect(fs.statSync(bomb).size).toBeLessThan(1024 * 1024);
    await expectRefused(api, dataDir, bomb, /compressed \d+ to 1, the mark of a zip bomb/);

    const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, 'bundles', 'notes', 'manifest.json'), 'utf8'));
    delete manifest.author;
    await expectRefused(
      api,
      dataDir,
      await handMadeBundle('notes', JSON.stringify(manifest)),
      /its manifest is not valid \(author: Required\)/,
    );
    await expectRefused(api, dataDir, await handMadeBundle('notes', '{"manifest_version": "9.9"'), /its manifest\.json is not valid JSON/);
    await expectRefused(
      api,
      dataDir,
      packBundle('notes', { omit: ['server/index.mjs'] }),
      'its entry point server/index.mjs is missing from the archive',
    );
    const elsewhere = process.platform === 'win32' ? 'linux' : 'win32';
    await expectRefused(
      api,
      dataDir,
      packBundle('notes', { manifest: (m) => (m.compatibility = { platforms: [elsewhere] }) }),
      `it supports ${elsewhere}, not this computer (${process.platform})`,
    );
  });

  it('refuses an archive larger than the limits, and a Python bundle when uv is missing', async () => {
    const { api, dataDir } = startTestHost({
      bundleLimits: { maxEntries: 100, maxUnpackedBytes: 1024 * 1024, maxRatio: 200 },
      findCommand: async () => undefined,
    });
    const big = packBundle('oversized', { files: { 'data/noise.bin': crypto.randomBytes(2 * 1024 * 1024) } });
    await expectRefused(api, dataDir, big, 'it unpacks to more than 1\u00a0MB, more than allowed');
    const python = packBundle('notes', {
      manifest: (m) => {
        (m.server as { type: string; mcp_config: { command: string } }).type = 'python';
        (m.server as { mcp_config: { command: string } }).mcp_config.command = 'python3';
      },
    });
    await expectRefused(api, dataDir, python, /needs uv .* uv was not found on your PATH/);
  });

  it('refuses an upload larger than it announced, and one over the size limit before any byte is sent', async () => {
    const { api } = startTestHost();
    await expect(api.beginUpload({ purpose: 'bundle', fileName: 'huge.mcpb', size: 10 * 1024 * 1024 * 1024 })).rejects.toThrow(
      /huge\.mcpb is 10\u00a0GB; a bundle may be at most 200\u00a0MB/,
    );
    const { uploadId } = await api.beginUpload({ purpose: 'bundle', fileName: 'small.mcpb', size: 4 });
    await expect(api.uploadChunk({ uploadId, offset: 0, data: Buffer.from('12345678').toString('base64') })).rejects.toThrow(
      'small.mcpb is larger than the 4 bytes announced',
    );
    await expect(api.openBundle({ uploadId })).rejects.toThrow(/No such upload/);
  });
});
