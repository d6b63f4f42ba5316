import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostApi, LogEntry, LogStream } from '@contract';
import { fixture, referenceServer } from '../../test-support/fixtures';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE } from '../store/database';
import { startLogsHost } from './test-support/logs-host';

/** Every entry of a stream (pages through all of it), oldest first. */
async function all(
  api: HostApi,
  serverId: string,
  stream: LogStream,
  filter: { text?: string; method?: string } = {},
): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await api.queryLogs({ serverId, stream, ...filter, limit: 2000, ...(beforeSeq ? { beforeSeq } : {}) });
    out.unshift(...page.entries);
    if (!page.hasMore) return out;
    beforeSeq = page.entries[0].seq;
  }
}

describe('logs of real servers', () => {
  it('Everything: the handshake in Protocol, spawn and version in Host, messages filtered at the server by the level', async () => {
    const host = startLogsHost();
    const { api } = host;
    const everything = referenceServer('everything');
    const added = await api.addServer({ name: 'everything', command: everything.command, args: everything.args, enabled: false });
    const id = added.config.id;
    // Chosen while stopped: sent as soon as the server is up.
    expect(await api.setServerLogLevel({ id, level: 'emergency' })).toEqual({ level: 'emergency', delivery: 'next-start' });
    await api.startServer({ id });
    const ready = await host.waitForStatus(id, 'ready');

    const protocol = await all(api, id, 'protocol');
    const initialize = protocol.find((e) => e.method === 'initialize' && e.kind === 'request');
    const answer = protocol.find((e) => e.method === 'initialize' && e.kind === 'response');
    expect(initialize).toMatchObject({ direction: 'out', hasDetail: true });
    expect(answer).toMatchObject({ direction: 'in', rpcId: initialize!.rpcId });
    expect(answer!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(answer!.bytes).toBeGreaterThan(100);
    const detail = await api.getLogEntry({ seq: answer!.seq });
    expect(JSON.parse(detail.detail).result.protocolVersion).toBe(ready.runtime.protocolVersion);
    expect(detail.detail).toContain('\n  "jsonrpc": "2.0"'); // pretty-printed
    await waitFor(async () => (await all(api, id, 'protocol', { method: 'logging/setLevel' })).length === 2, { what: 'setLevel at start' });

    const hostEntries = await all(api, id, 'host');
    const spawn = hostEntries.find((e) => e.event === 'spawn');
    expect(spawn?.text).toBe(`Spawned pid ${ready.runtime.pid}: ${process.execPath} ${everything.args!.join(' ')}`);
    expect(hostEntries.find((e) => e.event === 'negotiated')?.text).toContain(
      `negotiated protocol ${ready.runtime.protocolVersion} (legacy era)`,
    );
    expect(hostEntries.some((e) => e.text === 'Log level emergency (sent with logging/setLevel)')).toBe(true);
    expect((await all(api, id, 'output')).length).toBeGreaterThan(0);

    // At "emergency" the server drops nearly every random-level message before sending it.
    const toggle = () => host.fleet.connection(id)!.callTool('toggle-simulated-logging');
    for (let i = 0; i < 24; i++) await toggle(); // 12 times on (each sends one message at once), then off
    expect(await api.setServerLogLevel({ id, level: 'debug' })).toEqual({ level: 'debug', delivery: 'logging/setLevel' });
    const switchSeq = (await all(api, id, 'protocol', { method: 'logging/setLevel' })).at(-1)!.seq;
    for (let i = 0; i < 12; i++) await toggle();
    await waitFor(async () => (await all(api, id, 'messages')).filter((e) => e.seq > switchSeq).length >= 6, {
      what: '6 debug-phase messages',
    });

    const messages = await all(api, id, 'messages');
    const atEmergency = messages.filter((e) => e.seq < switchSeq);
    const atDebug = messages.filter((e) => e.seq > switchSeq);
    expect(atEmergency.every((e) => e.level === 'emergency')).toBe(true);
    expect(atEmergency.length).toBeLessThan(12);
    expect(new Set(atDebug.map((e) => e.level)).size).toBeGreaterThan(1);
    // (server-everything spells one of them "Alert level-message")
    expect(atDebug[0].text).toMatch(/level[- ]message/i);
    expect(host.events.some((e) => e.name === 'logLevelChanged' && e.payload.level === 'debug')).toBe(true);
  });

  it('never shows, stores or exports a secret: env values marked secret, API keys, authorization headers', async () => {
    const host = startLogsHost();
    const { api } = host;
    const secret = 'p4ss-W0rd-xyz-98765';
    const spec = fixture('prints-secret.mjs');
    const added = await api.addServer({
      name: 'leaky',
      command: spec.command,
      args: spec.args,
      env: [
        { key: 'LEAKY_SECRET', value: secret, secret: true },
        { key: 'PLAIN', value: 'visible-value' },
      ],
    });
    const id = added.config.id;
    await host.waitForStatus(id, 'ready');
    await host.fleet.connection(id)!.callTool('leak');
    await waitFor(async () => (await all(api, id, 'messages')).length > 0, { what: 'the leaky log message' });
    await waitFor(async () => (await all(api, id, 'output')).some((e) => e.text.startsWith('leak tool called')), {
      what: 'the stderr line',
    });

    const output = (await all(api, id, 'output')).map((e) => e.text);
    expect(output).toContain('starting with LEAKY_SECRET=[REDACTED]');
    expect(output).toContain('calling upstream with Authorization: [REDACTED]');
    expect(output).toContain('and a key that looks like [REDACTED]');
    const texts: string[] = [...output];
    for (const stream of ['messages', 'protocol', 'host'] as const) {
      for (const entry of await all(api, id, stream)) {
        texts.push(entry.text);
        if (entry.hasDetail) texts.push((await api.getLogEntry({ seq: entry.seq })).detail);
      }
      texts.push((await api.exportLogs({ serverId: id, stream })).jsonl);
    }
    texts.push((await api.getServerDiagnostics({ id })).text);
    const everything = texts.join('\n');
    expect(everything).toContain('"secret": "[REDACTED]"'); // the message data, pretty-printed
    expect(everything).toContain('secret: [REDACTED]'); // the tool result
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain('fixtureKEY0123456789');
    const diagnostics = (await api.getServerDiagnostics({ id })).text;
    expect(diagnostics).toContain('LEAKY_SECRET=[REDACTED] (secret)');
    expect(diagnostics).toContain('PLAIN=visible-value');

    // Not on disk either (the WAL included).
    host.logs.flush();
    const files = fs.readdirSync(host.dataDir).filter((f) => f.startsWith(DATABASE_FILE));
    for (const file of files) expect(fs.readFileSync(path.join(host.dataDir, file)).includes(secret)).toBe(false);
  });

  it('a stack trace on stderr is one Output entry, not one row per frame; ordinary lines stay one each', async () => {
    const host = startLogsHost();
    const { api } = host;
    const spec = fixture('stack-trace.mjs');
    const id = (await api.addServer({ name: 'traces', command: spec.command, args: spec.args })).config.id;
    await host.waitForStatus(id, 'ready');
    await host.fleet.connection(id)!.callTool('trace');
    await waitFor(async () => (await all(api, id, 'output')).some((e) => e.text.startsWith('TypeError')), { what: "the tool's trace" });
    // (The mini server also notes each message it receives: "<- method".)
    const output = (await all(api, id, 'output')).map((e) => e.text).filter((text) => !text.startsWith('<- '));
    expect(output).toEqual([
      'Error: could not open the index\n    at openIndex (/srv/notes/index.js:12:11)\n    at async main (/srv/notes/main.js:4:3)',
      'Traceback (most recent call last):\n  File "/srv/notes/server.py", line 8, in <module>\n    main()\nValueError: no notes folder',
      'ready to serve',
      'TypeError: x is undefined\n    at handler (/srv/notes/tool.js:3:5)',
    ]);
    expect((await all(api, id, 'output'))[0].level).toBe('error');
  });

  it('stderr flood: memory stays under the ring bound, the live stream is batched, retention trims old rows', async () => {
    const host = startLogsHost({ rings: { output: { entries: 3000, bytes: 512 * 1024 } } });
    const { api } = host;
    await api.updateLogSettings({ maxEntriesPerStream: 1000 });
    const spec = fixture('stderr-flood.sh'); // 10 MB of stderr before it answers initialize
    const added = await api.addServer({
      name: 'flood',
      command: spec.command,
      args: spec.args,
      env: Object.entries(spec.env!).map(([key, value]) => ({ key, value })),
    });
    const id = added.config.id;
    await host.waitForStatus(id, 'ready', 60_000);
    await waitFor(
      async () => (await api.queryLogs({ serverId: id, stream: 'output', text: 'stderr flood: done', limit: 1 })).entries.length === 1,
      {
        what: 'the last flood line',
      },
    );

    const memory = host.logs.memoryStats();
    expect(memory.ringBytes).toBeLessThanOrEqual(512 * 1024 + 2 * 1024 * 1024 + 8 * 1024 * 1024 + 512 * 1024);
    expect(memory.ringEntries).toBeLessThanOrEqual(3000 + 2000 + 2000 + 1000);
    expect(memory.pendingWrites).toBeLessThanOrEqual(4 * 2000);

    const live = () => {
      const batches = host.events.flatMap((e) => (e.name === 'logAppended' ? [e.payload] : []));
      const delivered = batches.reduce((n, b) => n + b.entries.length, 0);
      const skipped = batches.reduce((n, b) => n + b.skipped.reduce((s, k) => s + k.count, 0), 0);
      return { batches, delivered, skipped };
    };
    // ~145k lines, every one accounted for (the last batch may still be on its way).
    await waitFor(() => live().delivered + live().skipped > 140_000, { what: 'the flood to be accounted for live' });
    const { batches, delivered } = live();
    expect(batches.length).toBeLessThan(delivered / 50); // batches, never an event per line

    host.logs.flush();
    await api.updateLogSettings({}); // applies retention now
    const stored = host.db.prepare("SELECT COUNT(*) AS n FROM log_entries WHERE server_id = ? AND stream = 'output'").get(id) as {
      n: number;
    };
    expect(stored.n).toBeLessThanOrEqual(1000);
    expect((await all(api, id, 'output')).length).toBeLessThanOrEqual(3000 + 1000);
  });

  it('a live flood: the host keeps answering queries, and memory stays bounded while it runs', async () => {
    const host = startLogsHost();
    const { api } = host;
    const spec = fixture('stderr-flood-live.sh');
    const added = await api.addServer({
      name: 'live flood',
      command: spec.command,
      args: spec.args,
      env: [{ key: 'NODE_BIN', value: process.execPath }],
    });
    const id = added.config.id;
    await host.waitForStatus(id, 'ready');
    const started = Date.now();
    const latencies: number[] = [];
    while (Date.now() - started < 2000) {
      const t = performance.now();
      await api.queryLogs({ serverId: id, stream: 'output', text: 'fox', limit: 200 });
      latencies.push(performance.now() - t);
    }
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect(host.logs.memoryStats(id).ringEntries).toBeLessThanOrEqual(5000 + 2000 + 2000 + 1000);
    expect(host.logs.memoryStats().ringBytes).toBeLessThanOrEqual(13 * 1024 * 1024);
    await api.stopServer({ id });
  });

  it('2026 era: the level travels with every request, and the server filters by it', async () => {
    const host = startLogsHost();
    const { api } = host;
    const spec = fixture('modern-logging.mjs');
    const added = await api.addServer({ name: 'modern', command: spec.command, args: spec.args });
    const id = added.config.id;
    const ready = await host.waitForStatus(id, 'ready');
    expect(ready.runtime.era).toBe('modern');
    expect(await api.setServerLogLevel({ id, level: 'error' })).toEqual({ level: 'error', delivery: 'per-request' });
    const result = await host.fleet.connection(id)!.callTool('report-level');
    expect(result.content).toEqual([{ type: 'text', text: 'logLevel: error' }]);
    await waitFor(async () => (await all(api, id, 'messages')).length === 4, { what: 'the four messages at error and above' });
    expect((await all(api, id, 'messages')).map((e) => e.level)).toEqual(['error', 'critical', 'alert', 'emergency']);
    const call = (await all(api, id, 'protocol', { method: 'tools/call' })).find((e) => e.kind === 'request')!;
    expect((await api.getLogEntry({ seq: call.seq })).detail).toContain('"io.modelcontextprotocol/logLevel": "error"');
  });

  it('a crash: Host says how it ended, diagnostics say what ran, and a server without logging refuses a level', async () => {
    const host = startLogsHost();
    const { api } = host;
    const spec = fixture('exits-after-ready.mjs');
    const added = await api.addServer({ name: 'crashy', command: spec.command, args: spec.args, autoRestart: false });
    const id = added.config.id;
    await host.waitForStatus(id, 'ready').catch(() => undefined);
    await expect(api.setServerLogLevel({ id, level: 'info' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('does not declare logging'),
    });
    await host.waitForStatus(id, 'crashed');
    await waitFor(async () => (await all(api, id, 'host')).some((e) => e.event === 'crash'), { what: 'the crash entry' });
    const crash = (await all(api, id, 'host')).find((e) => e.event === 'crash')!;
    expect(crash).toMatchObject({ level: 'error', text: expect.stringContaining('exit code 7') });

    const diagnostics = await api.getServerDiagnostics({ id });
    expect(diagnostics.lastStderr).toContain('fatal: database is locked (simulated)');
    expect(diagnostics.text).toContain('Status: crashed');
    expect(diagnostics.text).toContain('Exit status: exit code 7');
    expect(diagnostics.text).toContain(`Resolved command: ${process.execPath}`);
    expect(diagnostics.text).toMatch(/Protocol: 2025-\d\d-\d\d \(legacy era\), when last ready/);
    expect(diagnostics.text).toContain('  fatal: database is locked (simulated)');

    await api.clearLogs({ serverId: id });
    expect(await all(api, id, 'host')).toEqual([]);
    expect(host.events.some((e) => e.name === 'logsCleared')).toBe(true);
  });
});
