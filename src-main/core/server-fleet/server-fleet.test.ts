import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ServerView } from '@contract';
import { hostApi, startTestHost } from '../../test-support/test-host';
import type { Host } from '../host';
import { isGroupAlive } from '../servers/process/process-tree';
import { BACKGROUND_NICE, readGroupNice } from '../servers/process/start-priority';
import { FIXTURES_DIR } from '../../test-support/fixtures';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE } from '../store/database';

/** A host on a temp data dir (short shutdown waits and restart backoff), disposed after the test. */
function startHost(dataDir?: string) {
  const { host, events } = startTestHost(dataDir ? { dataDir } : {});
  return { host, events, dataDir: host.info.dataDir };
}

const api = hostApi;

async function statusOf(host: Host, id: string): Promise<ServerView> {
  const snapshot = await api(host).getSnapshot();
  return snapshot.servers.find((s) => s.config.id === id)!;
}

async function waitForStatus(host: Host, id: string, status: ServerView['runtime']['status'], timeoutMs = 30_000): Promise<ServerView> {
  let last: ServerView | undefined;
  await waitFor(
    async () => {
      last = await statusOf(host, id);
      return last.runtime.status === status;
    },
    { timeoutMs, what: `server to be ${status}` },
  ).catch(() => expect.fail(`expected ${status}, got ${JSON.stringify(last?.runtime)}`));
  return last!;
}

const fixtureServer = (name: string, file: string, extra: object = {}) => ({
  name,
  command: process.execPath,
  args: [path.join(FIXTURES_DIR, file)],
  ...extra,
});

describe('servers through the host API', () => {
  it('adds the Everything preset with one call, runs it on the app runtime, and lists what it offers', async () => {
    const { host, events } = startHost();
    const added = await api(host).addPresetServer({ preset: 'everything' });
    expect(added.config).toMatchObject({ name: 'Everything (demo)', command: 'node', preset: 'everything' });
    const ready = await waitForStatus(host, added.config.id, 'ready');
    expect(ready.runtime).toMatchObject({ era: 'legacy', capabilities: expect.arrayContaining(['tools', 'resources', 'prompts']) });
    expect(ready.runtime.counts!.tools).toBeGreaterThan(5);
    expect(ready.runtime.serverInfo?.name).toBeTruthy();
    expect(events.some((e) => e.name === 'serverUpdated' && e.payload.runtime.status === 'starting')).toBe(true);

    const second = await api(host).addPresetServer({ preset: 'everything' });
    expect(second.config.name).toBe('Everything (demo) 2');

    const pid = ready.runtime.pid!;
    const stopped = await api(host).stopServer({ id: added.config.id });
    expect(stopped.runtime.status).toBe('stopped');
    expect(isGroupAlive(pid)).toBe(false);
    // Stop and Start also decide whether it starts with Patchbay: what the switch shows is what the next launch does.
    expect(stopped.config.enabled).toBe(false);
    const restarted = await api(host).startServer({ id: added.config.id });
    expect(restarted.config.enabled).toBe(true);
    await api(host).stopServer({ id: added.config.id });
  });

  it('rejects bad input field by field and saves nothing', async () => {
    const { host, dataDir } = startHost();
    await api(host).addServer({ name: 'dup', command: 'node', enabled: false });
    await expect(api(host).addServer({ name: ' ', command: '' })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [{ path: ['name'] }, { path: ['command'] }],
    });
    await expect(api(host).addServer({ name: 'x', command: 'node', env: [{ key: '1BAD', value: '' }] })).rejects.toMatchObject({
      data: [{ path: ['env', 0, 'key'] }],
    });
    const attempt = api(host).addServer({
      name: 'DUP',
      command: 'node',
      cwd: path.join(dataDir, 'missing'),
      env: [
        { key: 'A', value: '1' },
        { key: 'A', value: '2' },
        { key: 'S', secret: true },
      ],
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'invalid_input',
      data: [
        { path: ['name'], message: expect.stringContaining('already exists') },
        { path: ['cwd'], message: expect.stringContaining('No such directory') },
        { path: ['env', 1, 'key'], message: expect.stringContaining('twice') },
        { path: ['env', 2, 'value'], message: expect.stringContaining('Enter a value') },
      ],
    });
    expect((await api(host).getSnapshot()).servers.map((s) => s.config.name)).toEqual(['dup']);
  });

  it('keeps secret values out of SQLite and out of the renderer, and gives them to the server only', async () => {
    const { host, dataDir } = startHost();
    const secret = 'sk-very-secret-value-123';
    const added = await api(host).addServer({
      name: 'env echo',
      command: process.execPath,
      args: [path.join(FIXTURES_DIR, 'echo.mjs')],
      env: [
        { key: 'API_TOKEN', value: secret, secret: true },
        { key: 'PLAIN', value: 'visible' },
      ],
      enabled: false,
    });
    expect(added.config.env).toEqual([
      { key: 'API_TOKEN', secret: true },
      { key: 'PLAIN', secret: false, value: 'visible' },
    ]);
    expect(JSON.stringify(await api(host).getSnapshot())).not.toContain(secret);
    await host.dispose();
    for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith(DATABASE_FILE))) {
      expect(fs.readFileSync(path.join(dataDir, file)).includes(secret), file).toBe(false);
    }
    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    expect(db.prepare("SELECT value, secret_blob IS NOT NULL AS sealed FROM server_env WHERE key = 'API_TOKEN'").get()).toEqual({
      value: null,
      sealed: 1,
    });
    db.close();

    // An edit that leaves the secret untouched (no value sent) keeps it.
    const again = startHost(dataDir).host;
    const { id: _id, createdAt: _createdAt, ...config } = added.config;
    const kept = await api(again).updateServer({
      id: added.config.id,
      server: {
        ...config,
        env: [
          { key: 'API_TOKEN', secret: true },
          { key: 'PLAIN', value: 'changed' },
        ],
        enabled: false,
      },
    });
    expect(kept.config.env[1]).toEqual({ key: 'PLAIN', secret: false, value: 'changed' });
  });

  it('shows a crash with its exit code and stderr, restarts automatically, then stays Crashed after the last try', async () => {
    const { host, events } = startHost();
    const added = await api(host).addServer(fixtureServer('crasher', 'exits-after-ready.mjs'));
    const id = added.config.id;
    await waitFor(
      () => events.some((e) => e.name === 'serverUpdated' && e.payload.config.id === id && e.payload.runtime.restart?.attempt === 5),
      { timeoutMs: 60_000, what: 'the fifth automatic restart' },
    );
    const crashed = await waitFor(
      async () => {
        const view = await statusOf(host, id);
        return view.runtime.status === 'crashed' && !view.runtime.restart ? view : undefined;
      },
      { timeoutMs: 60_000, what: 'supervision to give up' },
    );
    expect(crashed.runtime.reason).toMatch(/exit code 7/);
    expect(crashed.runtime.lastStderr?.join('\n')).toContain('database is locked');
    expect(crashed.runtime.exit).toEqual({ code: 7, signal: null });

    // The user acts: Restart runs it again (and it crashes again, honestly).
    await api(host).restartServer({ id });
    await waitFor(
      () => events.some((e) => e.name === 'serverUpdated' && e.payload.config.id === id && e.payload.runtime.status === 'ready'),
      {
        timeoutMs: 30_000,
        what: 'the manual restart',
      },
    );
  });

  it('redacts a secret a crashed server printed from its last output and reason', async () => {
    const { host } = startHost();
    const secret = 'hunter2-super-secret-value';
    const added = await api(host).addServer({
      ...fixtureServer('leaky', 'prints-secret.mjs'),
      autoRestart: false,
      env: [{ key: 'LEAKY_SECRET', value: secret, secret: true }],
    });
    const ready = await waitForStatus(host, added.config.id, 'ready');
    process.kill(-ready.runtime.pid!, 'SIGKILL'); // the server dies under us
    const crashed = await waitForStatus(host, added.config.id, 'crashed');
    expect(crashed.runtime.lastStderr?.join('\n')).toContain('starting with LEAKY_SECRET=');
    expect(JSON.stringify(crashed)).not.toContain(secret);
    expect(JSON.stringify(crashed)).not.toContain('sk-ant-api03-fixtureKEY');
  });

  it('applies an edit live: a running server restarts with the new configuration', async () => {
    const { host } = startHost();
    const added = await api(host).addServer(fixtureServer('live', 'echo.mjs'));
    const first = await waitForStatus(host, added.config.id, 'ready');
    await api(host).updateServer({ id: added.config.id, server: { ...fixtureServer('live renamed', 'echo.mjs') } as never });
    await waitFor(
      async () => {
        const view = await statusOf(host, added.config.id);
        return view.runtime.status === 'ready' && view.runtime.pid !== first.runtime.pid;
      },
      { timeoutMs: 30_000, what: 'the restarted server' },
    );
    expect((await statusOf(host, added.config.id)).config.name).toBe('live renamed');
    expect(isGroupAlive(first.runtime.pid!)).toBe(false);
  });

  it('removes a server: its process group is gone and the renderer is told', async () => {
    const { host, events } = startHost();
    const added = await api(host).addServer(fixtureServer('to remove', 'ignores-sigterm.mjs'));
    const ready = await waitForStatus(host, added.config.id, 'ready');
    await api(host).removeServer({ id: added.config.id });
    expect(isGroupAlive(ready.runtime.pid!)).toBe(false);
    expect(events.at(-1)).toEqual({ name: 'serverRemoved', payload: { id: added.config.id } });
    expect((await api(host).getSnapshot()).servers).toEqual([]);
  });

  it('imports a Claude Desktop config: duplicates skipped with a reason, remote entries as remote servers', async () => {
    const { host } = startHost();
    await api(host).addServer({ name: 'memory', command: 'npx', enabled: false });
    const text = JSON.stringify({
      mcpServers: {
        memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        echo: { command: process.execPath, args: [path.join(FIXTURES_DIR, 'echo.mjs')] },
        remote: { url: 'https://example.com/mcp' },
      },
    });
    const preview = await api(host).previewImport({ text });
    expect(preview.entries.map((e) => [e.name, e.action])).toEqual([
      ['memory', 'skip'],
      ['echo', 'import'],
      ['remote', 'import'],
    ]);
    const result = await api(host).applyImport({ text });
    expect(result.imported.map((s) => [s.config.name, s.config.transport, s.config.url])).toEqual([
      ['echo', 'stdio', ''],
      ['remote', 'http', 'https://example.com/mcp'],
    ]);
    expect(result.skipped.map((s) => s.name)).toEqual(['memory']);
    await waitForStatus(host, result.imported[0].config.id, 'ready');
  });

  it('starts every enabled server at launch without waiting, and stops them all on dispose', async () => {
    const { host, dataDir } = startHost();
    for (const name of ['a', 'b', 'c']) await api(host).addServer(fixtureServer(name, 'echo.mjs', { enabled: name !== 'c' }));
    await host.dispose();

    const relaunched = startHost(dataDir).host;
    await relaunched.startServers();
    const servers = (await api(relaunched).getSnapshot()).servers;
    const [a, b, c] = servers.map((s) => s.config.id);
    const readyA = await waitForStatus(relaunched, a, 'ready');
    const readyB = await waitForStatus(relaunched, b, 'ready');
    expect((await statusOf(relaunched, c)).runtime.status).toBe('stopped');
    await relaunched.dispose();
    expect(isGroupAlive(readyA.runtime.pid!)).toBe(false);
    expect(isGroupAlive(readyB.runtime.pid!)).toBe(false);
  });

  it('launches through the start queue in config order, showing queued servers as starting', async () => {
    const { host, dataDir } = startHost();
    for (const name of ['a', 'b', 'c', 'd']) await api(host).addServer(fixtureServer(name, 'echo.mjs', { enabled: true }));
    await host.dispose();

    vi.stubEnv('PATCHBAY_START_CONCURRENCY', '1');
    try {
      const { host: relaunched, events } = startHost(dataDir);
      await relaunched.startServers();
      const [a, b, c, d] = (await api(relaunched).getSnapshot()).servers.map((s) => s.config.id);
      expect((await statusOf(relaunched, d)).runtime).toMatchObject({ status: 'starting', detail: 'Waiting for other servers to start' });
      // Stopped while still queued: it never launches.
      await api(relaunched).stopServer({ id: c });
      for (const id of [a, b, d]) await waitForStatus(relaunched, id, 'ready');
      expect((await statusOf(relaunched, c)).runtime.status).toBe('stopped');
      const launched: string[] = [];
      for (const e of events) {
        if (e.name !== 'serverUpdated' || e.payload.runtime.status !== 'starting') continue;
        if (e.payload.runtime.detail === 'Waiting for other servers to start' || launched.includes(e.payload.config.id)) continue;
        launched.push(e.payload.config.id);
      }
      expect(launched).toEqual([a, b, d]);
      await relaunched.dispose();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  // Linux with autogroup (see start-priority.ts); elsewhere the priority is left alone.
  it.skipIf(readGroupNice(process.pid) === undefined)(
    'servers started together boot at background priority and return to normal once ready; one alone is never lowered',
    async () => {
      const { host, dataDir } = startHost();
      await api(host).addServer(fixtureServer('stuck', 'never-initializes.mjs', { enabled: true }));
      for (const name of ['a', 'b']) await api(host).addServer(fixtureServer(name, 'echo.mjs', { enabled: true }));
      await host.dispose();

      const together = startHost(dataDir).host;
      await together.startServers();
      const [stuck, a, b] = (await api(together).getSnapshot()).servers.map((s) => s.config.id);
      const stuckPid = await waitFor(async () => (await statusOf(together, stuck)).runtime.pid, {
        timeoutMs: 30_000,
        what: 'the stuck server to spawn',
      });
      expect(readGroupNice(stuckPid)).toBe(BACKGROUND_NICE);
      for (const id of [a, b]) {
        const ready = await waitForStatus(together, id, 'ready');
        expect(readGroupNice(ready.runtime.pid!)).toBe(0);
      }
      await together.dispose();

      // Only the stuck server enabled: it starts alone, at normal priority.
      const alone = startHost(dataDir).host;
      for (const id of [a, b]) await api(alone).stopServer({ id });
      await alone.startServers();
      const alonePid = await waitFor(async () => (await statusOf(alone, stuck)).runtime.pid, {
        timeoutMs: 30_000,
        what: 'the stuck server to spawn',
      });
      expect(readGroupNice(alonePid)).toBe(0);
      expect((await statusOf(alone, a)).runtime.status).toBe('stopped');
      await alone.dispose();
    },
  );
});
