import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import type { HostApi } from '@contract';
import { packBundle } from '../../test-support/bundle-fixtures';
import { fixture } from '../../test-support/fixtures';
import { tempDir } from '../../test-support/temp-dir';
import { startTestHost } from '../../test-support/test-host';
import { uploadFile } from '../../test-support/uploads';
import { waitFor } from '../servers/wait';

/** Three kinds of server, one with a secret in each place a secret can be. */
async function addServers(api: HostApi) {
  const echo = fixture('echo.mjs');
  await api.addServer({
    name: 'echo',
    command: echo.command,
    args: echo.args,
    env: [
      { key: 'PLAIN', value: 'visible' },
      { key: 'API_KEY', value: 'sk-never-exported', secret: true },
    ],
    enabled: false,
  });
  await api.addServer({
    name: 'docs',
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: [{ key: 'Authorization', value: 'Bearer hdr-never-exported', secret: true }],
    enabled: false,
  });
  await api.addPresetServer({ preset: 'filesystem' });
  await api.setServerEnabled({ id: (await api.getSnapshot()).servers[2].config.id, enabled: false });
}

const zipNames = (file: string) =>
  yauzl.openPromise(file).then(async (zip) => {
    const names: string[] = [];
    for await (const entry of zip.eachEntry()) names.push(entry.fileName);
    zip.close();
    return names;
  });

describe('export and restore', () => {
  it('exports every server with secrets left out, and a wiped Patchbay restores them all from it', async () => {
    const first = startTestHost();
    await addServers(first.api);
    const [echoId, docsId] = (await first.api.getSnapshot()).servers.map((s) => s.config.id);
    await first.api.saveToolSet({ name: 'Research', members: { servers: [docsId], tools: [{ serverId: echoId, tool: 'echo' }] } });
    const exported = await first.api.exportServers({ format: 'patchbay' });
    // Tool sets travel with the servers, members named by server name (ids differ in another Patchbay).
    expect(JSON.parse(exported.text).toolSets).toEqual([
      { name: 'Research', servers: ['docs'], tools: [{ server: 'echo', tool: 'echo' }] },
    ]);
    expect(exported).toMatchObject({
      fileName: 'patchbay-servers.json',
      servers: 3,
      secretsLeftOut: ['echo: API_KEY', 'docs: Authorization'],
    });
    expect(exported.text).not.toMatch(/never-exported/);
    expect(exported.text).toContain('"toBeFilled": true');
    expect(exported.text).toContain('${patchbayData}');
    expect(exported.text).not.toContain(first.dataDir);

    // Another data directory: nothing there.
    const second = startTestHost();
    const preview = await second.api.previewImport({ text: exported.text });
    expect(preview.format).toBe('patchbay');
    expect(preview.entries.map((e) => [e.name, e.action, e.reason])).toEqual([
      ['echo', 'import', 'Restored disabled: set API_KEY before enabling (secrets are never exported)'],
      ['docs', 'import', 'Restored disabled: set Authorization before enabling (secrets are never exported)'],
      ['Filesystem', 'import', undefined],
    ]);
    const result = await second.api.applyImport({ text: exported.text });
    expect(result.skipped).toEqual([]);
    const before = (await first.api.getSnapshot()).servers.map((s) => s.config);
    const after = (await second.api.getSnapshot()).servers.map((s) => s.config);
    expect((await second.api.getSnapshot()).toolOffers.sets).toMatchObject([
      { name: 'Research', members: { servers: [{ id: after[1].id, name: 'docs' }], tools: [{ serverId: after[0].id, tool: 'echo' }] } },
    ]);
    expect(after.map((c) => c.name)).toEqual(before.map((c) => c.name));
    expect(after[0]).toMatchObject({ command: before[0].command, args: before[0].args, env: before[0].env, enabled: false });
    expect(after[1]).toMatchObject({ url: before[1].url, headers: before[1].headers, enabled: false });
    // The preset points at the new data directory's folder.
    expect(after[2]).toMatchObject({ preset: 'filesystem', args: [before[2].args[0], path.join(second.dataDir, 'files')] });
    // Restoring again adds nothing: the names are taken (the tool set's too, and it says so).
    expect((await second.api.previewImport({ text: exported.text })).entries.every((e) => e.action === 'skip')).toBe(true);
    expect((await second.api.applyImport({ text: exported.text })).notes).toEqual([
      { name: 'Research', note: 'Tool set not imported: a tool set named "Research" exists already' },
    ]);
  });

  it('exports for Claude Desktop and VS Code in shapes their import reads back', async () => {
    const { api } = startTestHost();
    await addServers(api);
    const claude = await api.exportServers({ format: 'claude-desktop' });
    expect(claude.fileName).toBe('claude_desktop_config.json');
    const config = JSON.parse(claude.text);
    expect(config.mcpServers.echo.env).toEqual({ PLAIN: 'visible', API_KEY: '<to be filled: API_KEY>' });
    expect(config.mcpServers.Filesystem).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', expect.any(String)],
    });
    expect(claude.notes).toEqual(['docs is a remote server: Claude Desktop adds those under Settings › Connectors.']);

    const vscode = await api.exportServers({ format: 'vscode' });
    const mcp = JSON.parse(vscode.text);
    expect(mcp.inputs).toEqual([
      { type: 'promptString', id: 'echo-API_KEY', description: 'echo: API_KEY', password: true },
      { type: 'promptString', id: 'docs-Authorization', description: 'docs: Authorization', password: true },
    ]);
    expect(mcp.servers.echo.env.API_KEY).toBe('${input:echo-API_KEY}');
    expect(mcp.servers.docs).toEqual({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: '${input:docs-Authorization}' },
    });
    // Read back by another Patchbay's Import servers.
    const other = startTestHost();
    const preview = await other.api.previewImport({ text: vscode.text });
    expect(preview.entries.map((e) => [e.name, e.action])).toEqual([
      ['echo', 'import'],
      ['docs', 'import'],
      ['Filesystem', 'import'],
    ]);
  });
});

describe('full backup', () => {
  it('backs up the database and bundles without any key, and restores them at the next start', async () => {
    const dataDir = tempDir();
    const first = startTestHost({ dataDir });
    await addServers(first.api);
    const plan = await first.api.openBundle({ uploadId: await uploadFile(first.api, 'bundle', packBundle('notes')) });
    await first.api.install({ source: plan.source, values: { greeting: 'Restored' }, start: false });
    // Tool sets and per-tool choices live in the database: the backup carries them.
    const docsId = (await first.api.getSnapshot()).servers.find((s) => s.config.name === 'docs')!.config.id;
    await first.api.saveToolSet({ name: 'Research', members: { servers: [docsId], tools: [] } });
    await first.api.setToolOffered({ serverId: docsId, tool: 'search', offered: false });
    const backup = await first.api.createBackup();
    expect(backup.path).toBe(path.join(dataDir, 'backups', backup.name));
    const names = await zipNames(backup.path);
    expect(names).toEqual(expect.arrayContaining(['backup.json', 'patchbay.db', 'bundles/notes-bundle/manifest.json', 'files/']));
    expect(names.some((name) => /secrets\.key|web-session|logs\//.test(name))).toBe(false);
    expect((await first.api.getBackupState()).backups.map((b) => b.name)).toEqual([backup.name]);

    // Later: a server removed, one added, the bundle gone.
    const servers = (await first.api.getSnapshot()).servers;
    await first.api.removeServer({ id: servers.find((s) => s.config.name === 'echo')!.config.id });
    await first.api.removeServer({ id: servers.find((s) => s.config.bundleId)!.config.id });
    await first.api.addServer({ name: 'added later', command: 'node', enabled: false });
    await first.api.deleteToolSet({ id: (await first.api.getSnapshot()).toolOffers.sets[0].id });
    expect(fs.existsSync(path.join(dataDir, 'bundles', 'notes-bundle'))).toBe(false);

    const state = await first.api.stageRestore({ backup: backup.name });
    expect(state.pendingRestore).toMatchObject({ from: backup.name, servers: 4 });
    expect(state.canRestart).toBe(false);
    await expect(first.api.restartApp()).rejects.toThrow('Web mode cannot restart itself');
    // Nothing in use changed yet.
    expect((await first.api.getSnapshot()).servers.map((s) => s.config.name)).toContain('added later');
    await first.host.dispose();

    const second = startTestHost({ dataDir });
    const restored = (await second.api.getSnapshot()).servers;
    expect(restored.map((s) => s.config.name).sort()).toEqual(['Filesystem', 'Notes (bundle)', 'docs', 'echo']);
    expect((await second.api.getBackupState()).pendingRestore).toBeUndefined();
    expect((await second.api.getSnapshot()).toolOffers.sets).toMatchObject([
      { name: 'Research', members: { servers: [{ id: docsId, name: 'docs' }] } },
    ]);
    const aside = fs.readdirSync(dataDir).filter((name) => name.startsWith('before-restore-'));
    expect(aside).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, aside[0], 'patchbay.db'))).toBe(true);
    // The bundle is back and runs; the sealed secret opens with this installation's key.
    const notes = restored.find((s) => s.config.bundleId === 'notes-bundle')!;
    await second.api.startServer({ id: notes.config.id });
    await waitFor(
      async () => (await second.api.getSnapshot()).servers.find((s) => s.config.id === notes.config.id)?.runtime.status === 'ready',
      {
        timeoutMs: 30_000,
        what: 'the restored bundle to start',
      },
    );
    expect(JSON.stringify(await second.api.runTool({ serverId: notes.config.id, tool: 'greet', args: {} }))).toContain('Restored');
    await second.api.stopServer({ id: notes.config.id });
  });

  it('refuses a file that is not a Patchbay backup, and stages nothing', async () => {
    const { api, dataDir } = startTestHost();
    const bundle = packBundle('notes');
    await expect(api.stageRestore({ uploadId: await uploadFile(api, 'backup', bundle) })).rejects.toThrow(
      /This backup cannot be restored: it holds manifest\.json, which is not part of a Patchbay backup\. Nothing was changed\./,
    );
    await expect(api.stageRestore({ backup: '../patchbay.db' })).rejects.toThrow('Choose one of the backups listed');
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('restore-pending'))).toEqual([]);
    expect((await api.getBackupState()).pendingRestore).toBeUndefined();
  });
});
