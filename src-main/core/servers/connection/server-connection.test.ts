import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { InMemoryLiveProcessStore, type LiveProcessRecord } from '../process/process-reaper';
import { isProcessAlive } from '../process/process-tree';
import { ServerRequestError } from './request-errors';
import { ServerConnection, type ServerConnectionOptions } from './server-connection';
import type { ServerState } from './server-state';
import type { ProcessSpec } from '../process/stdio-process';
import { fixture, testScope, type TestScope } from '../../../test-support/fixtures';
import { waitFor } from '../wait';

const fast = { stdinGraceMs: 300, termGraceMs: 300, killWaitMs: 3000 };

/** A ServerConnection wired for tests: every spawned pid is checked to be gone at the end. */
function connect(scope: TestScope, spec: ProcessSpec, options: Partial<ServerConnectionOptions> = {}) {
  const states: ServerState[] = [];
  const warnings: string[] = [];
  const store = new InMemoryLiveProcessStore();
  const conn = new ServerConnection({
    config: { id: 'fixture-id', name: 'fixture', ...spec },
    shutdown: fast,
    loginShellPath: async () => [],
    listChangedDebounceMs: 10,
    processStore: {
      add: (record: LiveProcessRecord) => {
        scope.track(record.pid);
        store.add(record);
      },
      remove: (pid) => store.remove(pid),
      list: () => store.list(),
    },
    onStateChange: (state) => states.push(state),
    onWarning: (warning) => warnings.push(warning),
    ...options,
    timeouts: { startMs: 10_000, probeMs: 2000, pingIntervalMs: 0, ...options.timeouts },
  });
  scope.defer(async () => {
    await conn.stop();
    expect(store.list()).toEqual([]);
  });
  const text = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await conn.callTool(name, args);
    return (result.content[0] as { text: string }).text;
  };
  return { conn, states, warnings, store, text };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected the request to fail'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(ServerRequestError);
      return error as ServerRequestError;
    },
  );

describe.concurrent('ServerConnection with fixture servers', () => {
  it('becomes ready with identity, era verdict and a paginated catalog, serves calls, and stops cleanly', async ({ onTestFinished }) => {
    const { conn, states, store, text } = connect(testScope(onTestFinished), fixture('echo.mjs', { env: { ECHO_PAGE_SIZE: '2' } }));
    const state = await conn.start();
    expect(state).toMatchObject({
      status: 'ready',
      server: {
        serverInfo: { name: 'echo', version: '1.2.3' },
        protocolVersion: '2025-11-25',
        era: 'legacy',
        eraVerdict: { kind: 'legacy' },
      },
    });
    expect(states.map((s) => (s.status === 'starting' ? s.detail : s.status))).toEqual([
      'launching',
      'negotiating the protocol version',
      'listing tools',
      'ready',
    ]);
    expect(conn.catalog.tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'slow', 'add-tool', 'freeze']);
    expect(conn.catalog.resources).toEqual([]); // not declared: never asked
    expect(conn.eraVerdict).toEqual({ kind: 'legacy' });
    expect(store.list()).toMatchObject([{ serverId: 'fixture-id', pid: conn.pid, pgid: conn.pid }]);
    // stderr is its own pipe: its lines may trail the stdout traffic they describe.
    await waitFor(() => conn.stderrTail().includes('<- server/discover #server-discover-probe-1'), { what: 'the probe in stderr' });

    expect(await text('echo', { message: 'hi' })).toBe('echo: hi');
    expect(await text('add', { a: 2, b: 3 })).toBe('5');

    const result = await conn.stop();
    expect(result).toMatchObject({ stage: 'stdin-closed', code: 0 });
    expect(conn.state).toMatchObject({ status: 'stopped', exit: { code: 0, signal: null } });
  });

  it('refreshes the tool list on notifications/tools/list_changed', async ({ onTestFinished }) => {
    const catalogs: string[][] = [];
    const { conn, text } = connect(testScope(onTestFinished), fixture('echo.mjs'), {
      onCatalogChange: (c) => catalogs.push(c.tools.map((t) => t.name)),
    });
    await conn.start();
    await text('add-tool', { name: 'shiny' });
    await waitFor(() => conn.catalog.tools.some((tool) => tool.name === 'shiny'), { what: 'the refreshed tool list' });
    expect(catalogs.at(-1)).toContain('shiny');
  });

  it('refuses a malformed tool result on every call, not only the first (the result validator is kept per method)', async ({
    onTestFinished,
  }) => {
    const { conn, text } = connect(testScope(onTestFinished), fixture('malformed-result.mjs'));
    await conn.start();
    for (let i = 0; i < 2; i++) {
      const error = await failure(conn.callTool('broken'));
      expect(error.kind).toBe('failed');
      expect(error.message).toMatch(
        /^tools\/call "broken" to server "fixture" failed: Invalid result for tools\/call: .*"expected": "array"/s,
      );
      expect(await text('echo', { message: `still fine ${i}` })).toBe(`echo: still fine ${i}`);
    }
  });

  it('fails in-flight requests with the server name, exit code and stderr when the server crashes', async ({ onTestFinished }) => {
    const { conn, text } = connect(testScope(onTestFinished), fixture('crash-on-call.mjs', { args: ['2'] }));
    await conn.start();
    expect(await text('work')).toBe('call 1 ok');
    const error = await failure(conn.callTool('work'));
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(
      /^Server "fixture" stopped while handling tools\/call "work" \(exit code 3\)\. Server "fixture" exited unexpectedly \(exit code 3\)\./,
    );
    expect(error.message).toContain('Last stderr lines:\n');
    expect(error.message).toContain('  fatal: simulated crash on call 2');
    expect(conn.state).toMatchObject({
      status: 'crashed',
      exit: { code: 3 },
      reason: 'Server "fixture" exited unexpectedly (exit code 3).',
    });
    expect(conn.state.status === 'crashed' && conn.state.restart).toBeFalsy();
    const notReady = await failure(conn.callTool('work'));
    expect(notReady.kind).toBe('not-ready');
    expect(notReady.message).toBe('Server "fixture" is not running (crashed); tools/call "work" was not sent');
  });

  it('restarts a crashing server with exponential backoff, at most 5 times, then stays crashed', async ({ onTestFinished }) => {
    const { conn, states } = connect(testScope(onTestFinished), fixture('crash-on-call.mjs', { args: ['1'] }), {
      restart: { enabled: true, baseDelayMs: 5, maxAttempts: 5 },
    });
    await conn.start();
    for (let crash = 1; crash <= 6; crash++) {
      await waitFor(() => conn.state.status === 'ready', { timeoutMs: 10_000, what: `ready before crash ${crash}` });
      await failure(conn.callTool('work'));
    }
    await waitFor(() => conn.state.status === 'crashed' && !conn.state.restart, { what: 'supervision to give up' });
    const crashes = states.filter((s): s is Extract<ServerState, { status: 'crashed' }> => s.status === 'crashed');
    expect(crashes.map((s) => s.restart && s.restart.at - s.since)).toEqual([5, 10, 20, 40, 80, undefined]);
    expect(crashes.at(-1)?.reason).toMatch(/Gave up after 5 automatic restarts\.$/);
    expect(states.filter((s) => s.status === 'ready')).toHaveLength(6);
    expect(states.filter((s) => s.status === 'starting').map((s) => s.status === 'starting' && s.attempt)).toContain(6);
  });

  it('gives up on a server that never initializes, names the timeout, and kills it', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('never-initializes.mjs'), { timeouts: { startMs: 800, probeMs: 300 } });
    const state = await conn.start();
    expect(state).toMatchObject({ status: 'error' });
    expect(state.status === 'error' && state.reason).toMatch(
      /^Server "fixture" did not complete the MCP handshake: no answer and no output for 0\.8 s; it was stopped\.\nLast stderr lines:\n {2}never-initializes: listening/,
    );
    expect(conn.pid).toBeUndefined();
  });

  it('reports an unsupported protocol version naming both versions', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('unsupported-version.mjs'));
    const state = await conn.start();
    expect(state.status === 'error' && state.reason).toMatch(
      /^Server "fixture" answered with protocol version 1999-01-01, which Patchbay does not support \(Patchbay offered 2025-11-25;/,
    );
  });

  it('tolerates junk on stdout, reporting it as warnings', async ({ onTestFinished }) => {
    const { conn, warnings, text } = connect(testScope(onTestFinished), fixture('junk-stdout.mjs'));
    expect((await conn.start()).status).toBe('ready');
    expect(await text('echo', { message: 'ok' })).toBe('echo: ok');
    expect(warnings.some((w) => w.startsWith('Server "fixture" wrote a line to stdout that is not JSON'))).toBe(true);
    expect(warnings.some((w) => w.includes('not a JSON-RPC message'))).toBe(true);
  });

  it('connects to a server that writes 10 MB to stderr first', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('stderr-flood.sh'));
    expect((await conn.start()).status).toBe('ready');
    // Nothing lost at the seam between the flood and the protocol traffic.
    const tail = await waitFor(() => (conn.stderrTail(10).includes('<- initialize #0') ? conn.stderrTail(10) : undefined), {
      what: 'the handshake in stderr',
    });
    const done = tail.indexOf('stderr flood: done');
    expect(tail.slice(done, done + 3)).toEqual(['stderr flood: done', '<- server/discover #server-discover-probe-1', '<- initialize #0']);
  });

  it('extends the start timeout while the server keeps writing to stderr, and says so', async ({ onTestFinished }) => {
    const { conn, states } = connect(testScope(onTestFinished), fixture('echo.mjs', { env: { ECHO_STARTUP_CHATTER_MS: '1000' } }), {
      timeouts: { startMs: 500, probeMs: 200 },
    });
    expect((await conn.start()).status).toBe('ready');
    const details = states.flatMap((s) => (s.status === 'starting' ? [s.detail] : []));
    expect(details.some((d) => /^still starting… \(still installing… /.test(d))).toBe(true);
  });

  it('stops waiting when a chatty start goes silent', async ({ onTestFinished }) => {
    const script = 'console.error("working…"); setTimeout(() => {}, 60000); process.stdin.resume()';
    const { conn } = connect(
      testScope(onTestFinished),
      { command: process.execPath, args: ['-e', script] },
      { timeouts: { startMs: 400, probeMs: 100 } },
    );
    const state = await conn.start();
    expect(state.status === 'error' && state.reason).toBe(
      'Server "fixture" did not complete the MCP handshake: no answer and no output for 0.4 s; it was stopped.\nLast stderr lines:\n  working…',
    );
  });

  it('says which command was not found and where it looked', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), { command: 'npx-nope' }, { parentEnv: { PATH: '/nope/bin' } });
    const state = await conn.start();
    expect(state).toMatchObject({
      status: 'error',
      reason: 'Server "fixture" could not be started: `npx-nope` not found on PATH (searched: /nope/bin)',
    });
  });

  it('reports a server that exits during startup with its exit code and stderr', async ({ onTestFinished }) => {
    const script = 'console.error("missing config file"); process.exit(2)';
    const { conn } = connect(testScope(onTestFinished), { command: process.execPath, args: ['-e', script] });
    const state = await conn.start();
    expect(state.status === 'error' && state.reason).toBe(
      'Server "fixture" exited during startup (exit code 2).\nLast stderr lines:\n  missing config file',
    );
  });

  it('cleans up a half-built connection when listing its tools fails', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('echo.mjs', { env: { ECHO_FAIL_LIST: '1' } }));
    const state = await conn.start();
    expect(state.status === 'error' && state.reason).toMatch(
      /^Server "fixture" failed during listing its tools: .*tool registry is broken/,
    );
    expect(conn.pid).toBeUndefined();
  });

  it('falls back to initialize without probing for a server that exits on the version probe', async ({ onTestFinished }) => {
    const { conn, text } = connect(testScope(onTestFinished), fixture('echo.mjs', { env: { ECHO_PRE_INIT: 'exit' } }));
    expect((await conn.start()).status).toBe('ready');
    expect(await text('echo', { message: 'x' })).toBe('echo: x');
    await waitFor(() => conn.stderrTail().some((line) => line.startsWith('<- tools/call')), { what: 'stderr' });
    expect(conn.stderrTail()).not.toContain('<- server/discover #server-discover-probe-1');
  });

  it('uses a cached legacy verdict to skip the probe', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('echo.mjs'), { prior: { kind: 'legacy' } });
    expect((await conn.start()).status).toBe('ready');
    expect(await waitFor(() => conn.stderrTail()[0], { what: 'stderr' })).toBe('<- initialize #0');
  });

  it('re-negotiates when a cached modern verdict has gone stale', async ({ onTestFinished }) => {
    const prior: PriorDiscovery = { kind: 'modern', discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } };
    const { conn, warnings } = connect(testScope(onTestFinished), fixture('echo.mjs'), { prior });
    const state = await conn.start();
    expect(state).toMatchObject({ status: 'ready', server: { era: 'legacy', eraVerdict: { kind: 'legacy' } } });
    expect(warnings.some((w) => w.startsWith('Server "fixture": the cached protocol era did not work'))).toBe(true);
    expect(conn.eraVerdict).toEqual({ kind: 'legacy' });
  });

  it('negotiates the modern era with a 2026-07-28 server, and reuses its verdict with zero round trips', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const first = connect(scope, fixture('modern.mjs'));
    const state = await first.conn.start();
    expect(state).toMatchObject({
      status: 'ready',
      server: {
        era: 'modern',
        protocolVersion: '2026-07-28',
        serverInfo: { name: 'modern', version: '2.0.0' },
        eraVerdict: { kind: 'modern' },
      },
    });
    expect(await first.text('echo', { message: 'new world' })).toBe('echo: new world');
    const verdict = first.conn.eraVerdict;
    await first.conn.stop();

    const second = connect(scope, fixture('modern.mjs'), { prior: verdict });
    expect((await second.conn.start()).status).toBe('ready');
    await waitFor(() => second.conn.stderrTail().length > 0, { what: 'stderr' });
    expect(second.conn.stderrTail()).toEqual(['<- tools/list #0']); // no server/discover, no initialize
  });

  it('re-negotiates when a cached legacy verdict meets a server that became modern-only', async ({ onTestFinished }) => {
    const { conn, warnings } = connect(testScope(onTestFinished), fixture('modern.mjs'), { prior: { kind: 'legacy' } });
    expect(await conn.start()).toMatchObject({ status: 'ready', server: { era: 'modern' } });
    expect(warnings.some((w) => w.startsWith('Server "fixture": the cached protocol era did not work'))).toBe(true);
  });

  it('can be stopped while it is still starting', async ({ onTestFinished }) => {
    const { conn, states } = connect(testScope(onTestFinished), fixture('never-initializes.mjs'));
    const starting = conn.start();
    const pid = await waitFor(() => conn.pid, { what: 'the spawn' });
    await waitFor(() => conn.stderrTail().length > 0, { what: 'the server to run' });
    await conn.stop();
    expect(await starting).toMatchObject({ status: 'stopped' });
    expect(states.at(-1)).toMatchObject({ status: 'stopped' });
    expect(isProcessAlive(pid)).toBe(false);
    // And it starts again afterwards (restart = stop + start).
    const { conn: again } = connect(testScope(onTestFinished), fixture('echo.mjs'));
    expect((await again.restart()).status).toBe('ready');
  });
});

describe.concurrent('ServerConnection requests', () => {
  it('times out, sends notifications/cancelled, and names the server and request', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('echo.mjs'));
    await conn.start();
    const error = await failure(conn.callTool('slow', { ms: 5000 }, { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('Server "fixture" did not answer tools/call "slow" within 0.3 s; the request was cancelled');
    await waitFor(() => conn.stderrTail().some((line) => /^cancelled request #\d+: .*Request timed out/.test(line)), {
      what: 'the cancellation',
    });
  });

  it('lets progress notifications extend the timeout', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('echo.mjs'));
    await conn.start();
    const progress: number[] = [];
    const result = await conn.callTool('slow', { ms: 1500, tickMs: 100 }, { timeoutMs: 600, onProgress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'slept 1500 ms' }]);
    expect(progress.length).toBeGreaterThanOrEqual(10);
  });

  it('caps a request with progress at the maximum total time, and cancels it on the server', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('echo.mjs'));
    await conn.start();
    const error = await failure(conn.callTool('slow', { ms: 10_000, tickMs: 100 }, { timeoutMs: 600, maxTotalTimeoutMs: 1500 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/^Server "fixture" did not finish tools\/call "slow" within the 1\.5 s limit/);
    await waitFor(() => conn.stderrTail().some((line) => /^cancelled request #\d+: .*maximum total time/.test(line)), {
      what: 'the cancellation',
    });
  });

  it('cancels on the caller’s abort signal', async ({ onTestFinished }) => {
    const { conn } = connect(testScope(onTestFinished), fixture('echo.mjs'));
    await conn.start();
    const controller = new AbortController();
    const call = conn.callTool('slow', { ms: 10_000, tickMs: 50 }, { signal: controller.signal, onProgress: () => controller.abort() });
    const error = await failure(call);
    expect(error).toMatchObject({ kind: 'cancelled', message: 'tools/call "slow" to server "fixture" was cancelled' });
    await waitFor(() => conn.stderrTail().some((line) => line.startsWith('cancelled request #')), { what: 'the cancellation' });
  });

  it('fails a response over the size limit without losing the connection', async ({ onTestFinished }) => {
    const { conn, text } = connect(testScope(onTestFinished), fixture('big-result.mjs'), { maxMessageBytes: 1024 * 1024 });
    await conn.start();
    const error = await failure(conn.callTool('big'));
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(
      /^Server "fixture" answered tools\/call "big" with a message that was too large\. Discarded: 10\.0\u00a0MB message exceeds the 1\u00a0MB limit/,
    );
    expect(await text('echo', { message: 'still fine' })).toBe('echo: still fine');
  });

  it('pings an idle server and treats a missed ping as a dead connection', async ({ onTestFinished }) => {
    const { conn, text } = connect(testScope(onTestFinished), fixture('echo.mjs'), {
      timeouts: { pingIntervalMs: 100, pingTimeoutMs: 1000 },
    });
    await conn.start();
    await waitFor(() => conn.stderrTail().filter((line) => line.startsWith('<- ping')).length >= 2, { what: 'two pings' });
    const pid = conn.pid!;
    await text('freeze');
    await waitFor(() => conn.state.status === 'crashed', { what: 'the missed ping' });
    expect(conn.state).toMatchObject({ reason: 'Server "fixture" did not answer a ping within 1 s; it was considered hung and stopped.' });
    await waitFor(() => !isProcessAlive(pid), { what: 'the hung server to be stopped' });
  });

  it('stops a server that ignores SIGTERM by killing its whole process group', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const { conn, text } = connect(scope, fixture('ignores-sigterm.mjs'));
    await conn.start();
    const { grandchild } = JSON.parse(await text('pids')) as { grandchild: number };
    scope.track(grandchild);
    const result = await conn.stop();
    expect(result).toMatchObject({ stage: 'sigkill', signal: 'SIGKILL', groupGone: true });
    expect(conn.state).toMatchObject({ status: 'stopped', exit: { code: null, signal: 'SIGKILL' } });
    expect(isProcessAlive(grandchild)).toBe(false);
  });
});
