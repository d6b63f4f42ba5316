import { describe, expect, it } from 'vitest';
import { HostCallError, type InstallSource, type RegistryEntry } from '@contract';
import { startRegistryFixture } from '../../test-support/registry-fixture';
import { startTestHost } from '../../test-support/test-host';
import { freePort } from '../servers/test-support/everything-http';
import { waitFor } from '../servers/wait';
import { sandboxSupport } from '../sandbox/sandbox-support';

/** A host whose Registry URL is the fixture. */
async function hostWithRegistry(args: string[] = []) {
  const registry = await startRegistryFixture(args);
  const test = startTestHost();
  await test.api.updateSettings({ registryUrl: registry.url });
  return { ...test, registry };
}

const source = (entry: RegistryEntry, option = 0): InstallSource => ({ kind: 'registry', entryId: entry.id, option });

async function find(api: Awaited<ReturnType<typeof hostWithRegistry>>['api'], name: string): Promise<RegistryEntry> {
  const page = await api.searchRegistry({ query: name });
  const entry = page.entries.find((e) => e.name === name);
  if (!entry) throw new Error(`${name} not found`);
  return entry;
}

describe('registry: search', () => {
  it('lists entries with their facts, pages with the cursor, and skips a malformed entry with a note', async () => {
    const { api, registry } = await hostWithRegistry(['--page-size', '3']);
    const first = await api.searchRegistry({});
    expect(first.registryUrl).toBe(registry.url);
    expect(first.entries.map((e) => e.name)).toEqual([
      'io.github.modelcontextprotocol/everything',
      'io.github.example/weather',
      'com.example/remote-docs',
    ]);
    expect(first.entries[0]).toMatchObject({
      title: 'Everything',
      version: '2026.8.31',
      publisher: 'io.github.modelcontextprotocol',
      repositoryUrl: 'https://github.com/modelcontextprotocol/servers',
      kinds: ['npm'],
      options: [{ index: 0, kind: 'npm', supported: true, label: 'npm @modelcontextprotocol/server-everything 2026.8.31' }],
    });
    expect(first.entries[2].kinds).toEqual(['remote']);
    expect(first.nextCursor).toBeTruthy();

    const second = await api.searchRegistry({ cursor: first.nextCursor });
    expect(second.entries.map((e) => e.name)).toEqual(['io.github.example/database-manager']);
    expect(second.entries[0]).toMatchObject({
      status: 'deprecated',
      kinds: ['oci', 'nuget'],
      options: [
        { kind: 'oci', supported: true },
        { kind: 'nuget', supported: false, unsupportedReason: 'NuGet packages (dnx) are not supported yet' },
      ],
    });
    expect(second.skipped).toEqual([{ name: 'not a registry name', reason: expect.stringMatching(/^server\.name: not a registry name/) }]);
    expect(second.nextCursor).toBeUndefined();

    expect((await api.searchRegistry({ query: 'WEATHER' })).entries.map((e) => e.name)).toEqual(['io.github.example/weather']);
  });

  it('says clearly when the registry fails or cannot be reached, and the host goes on', async () => {
    const { api, registry } = await hostWithRegistry(['--fail']);
    await expect(api.searchRegistry({})).rejects.toThrow(`The registry at ${registry.url} failed: it answered 503 Service Unavailable`);
    const closed = `http://127.0.0.1:${await freePort()}`;
    await api.updateSettings({ registryUrl: closed });
    await expect(api.searchRegistry({})).rejects.toThrow(`The registry at ${closed} failed: it could not be reached (ECONNREFUSED)`);
    // Everything else still answers.
    expect((await api.getSnapshot()).settings.registryUrl).toBe(closed);
  });
});

describe('registry: install', () => {
  it('builds the exact command line from a PyPI entry, asks for its secret, and stores it sealed', async () => {
    const { api, host } = await hostWithRegistry();
    const entry = await find(api, 'io.github.example/weather');
    const plan = await api.planInstall({ source: source(entry) });
    expect(plan.suggestedName).toBe('weather');
    expect(plan.startByDefault).toBe(true);
    expect(plan.fields).toEqual([
      expect.objectContaining({ id: 'env:WEATHER_API_KEY', label: 'WEATHER_API_KEY', required: true, secret: true }),
      expect.objectContaining({ id: 'env:WEATHER_UNITS', default: 'celsius', choices: ['celsius', 'fahrenheit'], required: false }),
      expect.objectContaining({ id: 'package:0', label: '--cache-dir', kind: 'file', required: false }),
    ]);
    expect(plan.preview).toMatchObject({ commandLine: 'uvx weather-mcp-server==0.5.0', missing: ['WEATHER_API_KEY'] });

    const values = { 'env:WEATHER_API_KEY': 'wk-secret-123', 'package:0': '/tmp/weather cache' };
    const preview = await api.previewInstall({ source: source(entry), values });
    expect(preview).toMatchObject({
      commandLine: 'uvx weather-mcp-server==0.5.0 --cache-dir "/tmp/weather cache"',
      env: [
        { key: 'WEATHER_API_KEY', secret: true },
        { key: 'WEATHER_UNITS', secret: false, value: 'celsius' },
      ],
      missing: [],
    });
    expect(JSON.stringify(preview)).not.toContain('wk-secret-123');

    await expect(api.install({ source: source(entry), values: {} })).rejects.toThrow('Fill in WEATHER_API_KEY first');
    const view = await api.install({ source: source(entry), values, start: false });
    expect(view.config).toMatchObject({
      name: 'weather',
      command: 'uvx',
      args: ['weather-mcp-server==0.5.0', '--cache-dir', '/tmp/weather cache'],
      env: [
        { key: 'WEATHER_API_KEY', secret: true },
        { key: 'WEATHER_UNITS', secret: false, value: 'celsius' },
      ],
      enabled: false,
    });
    expect(view.runtime.status).toBe('stopped');
    // Sealed in SQLite, never plaintext.
    const snapshot = JSON.stringify(await api.getSnapshot());
    expect(snapshot).not.toContain('wk-secret-123');
    expect(host).toBeDefined();
  });

  it('fills a remote entry’s URL template and headers, and passes an OCI entry’s environment by name', async () => {
    const { api } = await hostWithRegistry();
    const remote = await find(api, 'com.example/remote-docs');
    const preview = await api.previewInstall({ source: source(remote), values: { 'url/tenant': 'globex', 'header:X-API-Key': 'k-1' } });
    expect(preview).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com/globex/mcp',
      headers: [
        { key: 'X-API-Key', secret: true },
        { key: 'X-Region', secret: false, value: 'eu-west-1' },
      ],
      missing: [],
    });

    const oci = await find(api, 'io.github.example/database-manager');
    const plan = await api.planInstall({ source: source(oci) });
    expect(plan.about.warnings).toEqual(['The registry marks it deprecated: Use database-manager-v4']);
    const values = { 'runtime:0/db_type': 'postgres', 'package:0': 'orders', 'env:DB_PASSWORD': 'pw' };
    expect((await api.previewInstall({ source: source(oci), values })).commandLine).toBe(
      'docker run -i --rm -e DB_TYPE=postgres -e DB_PASSWORD example/database-manager-mcp:3.1.0 orders',
    );
    await expect(api.planInstall({ source: source(oci, 1) })).rejects.toThrow(
      'This entry cannot be installed: NuGet packages (dnx) are not supported yet',
    );
    await expect(
      api.planInstall({ source: { kind: 'registry', entryId: 'io.github.nobody/nothing@1.0.0', option: 0 } }),
    ).rejects.toBeInstanceOf(HostCallError);
  });

  it('installs the npm entry and the server starts from the local npm cache', { timeout: 180_000 }, async () => {
    const { api } = await hostWithRegistry();
    const entry = await find(api, 'io.github.modelcontextprotocol/everything');
    const plan = await api.planInstall({ source: source(entry) });
    expect(plan.preview.commandLine).toBe('npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio');
    const view = await api.install({ source: source(entry), values: {}, start: true });
    expect(view.config).toMatchObject({ name: 'Everything', command: 'npx', enabled: true });
    // A stranger's code starts sandboxed where the machine can (network allowed: npx fetches it).
    if (sandboxSupport().supported) expect(view.config.sandbox).toEqual({ enabled: true, network: 'allowed', hosts: [] });
    await waitFor(async () => (await api.getSnapshot()).servers[0].runtime.status === 'ready', {
      timeoutMs: 150_000,
      what: 'the registry-installed server to be ready',
    });
    const ready = (await api.getSnapshot()).servers[0];
    expect(ready.runtime.serverInfo?.name).toMatch(/everything/i);
    await api.stopServer({ id: ready.config.id });
  });
});
