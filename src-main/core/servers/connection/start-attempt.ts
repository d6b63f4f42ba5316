/**
 * One attempt at bringing a server up: spawn, negotiate the protocol era, fetch the catalog —
 * all under the start watchdog — and, on failure, tear the half-built session down again and
 * explain what went wrong.
 */
import path from 'node:path';
import type { Implementation, PriorDiscovery } from '@modelcontextprotocol/client';
import { fetchCatalog } from './server-catalog';
import { ServerSession, type SessionOptions } from './server-session';
import type { ServerCatalog, ServerIdentity } from './server-state';
import { StartWatchdog } from './start-watchdog';
import { explainStartFailure } from './start-failure';
import type { ServerSpec } from './connection-options';
import type { ExitInfo } from '../process/stdio-process';
import type { LaunchProblem } from '@contract';
import { LaunchError } from '../process/launch-error';
import { launchProblemOf } from '../process/launch-problem';
import { RemoteServerTransport } from '../transport/remote-transport';
import type { TemporaryRefusal } from '../transport/temporary-refusal';

/** One start attempt's inputs: what to run, the limits, and how to report back. */
export interface StartAttemptOptions {
  serverName: string;
  spec: ServerSpec;
  clientInfo: Implementation;
  /** Cached era verdict to start from (none: probe with server/discover). */
  prior: PriorDiscovery | undefined;
  /** Idle start timeout, extended by stderr output (see StartWatchdog). */
  startMs: number;
  startMaxMs: number;
  probeMs: number;
  /** Timeout of each catalog request. */
  requestMs: number;
  /** Everything a session needs that the connection decides (limits, env, callbacks). */
  session: Omit<
    SessionOptions,
    'serverName' | 'spec' | 'clientInfo' | 'probeTimeoutMs' | 'onStderrLine' | 'onClose' | 'onTools' | 'onListStale'
  > & {
    onStderrLine?: (line: string) => void;
    onClose: (session: ServerSession) => void;
    onTools: (session: ServerSession, items: ServerCatalog['tools']) => void;
    onListStale: (session: ServerSession, kind: 'resources' | 'prompts') => void;
  };
  /** The session exists (so a concurrent stop() can end it). */
  onSession: (session: ServerSession) => void;
  /** What is happening now, for the `starting` state's detail. */
  onDetail: (detail: string) => void;
  /** Stops a session and forgets its process record. */
  endSession: (session: ServerSession) => Promise<unknown>;
  now: () => number;
}

/** How a start attempt ended. */
export type StartAttemptOutcome =
  | { kind: 'ready'; session: ServerSession; identity: ServerIdentity; catalog: ServerCatalog }
  /** The server hung up on the `server/discover` probe: try again without probing. */
  | { kind: 'retry-legacy' }
  /** A remote server refused Streamable HTTP: try the legacy HTTP+SSE transport. */
  | { kind: 'retry-sse' }
  | {
      kind: 'fail';
      reason: string;
      /** Worth one more try without the cached era verdict (it may be stale). */
      retryable: boolean;
      exit: ExitInfo | undefined;
      stderrTail: string[];
      /** The server said "not now" (429, 5xx): the same start, later, is what to try. */
      refusal?: TemporaryRefusal;
      /** The program could not be launched: what was looked for, where, and the fixes. */
      launch?: LaunchProblem;
    };

/** Commands that download before running: their stderr chatter during start means "installing". */
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'uv', 'pnpm', 'yarn', 'bun', 'npm', 'deno']);

/** Runs one start attempt. Never rejects. */
export async function attemptStart(o: StartAttemptOptions): Promise<StartAttemptOutcome> {
  const runner = PACKAGE_RUNNERS.has(path.basename(o.spec.command).replace(/\.(cmd|exe)$/i, ''));
  const busy = runner ? 'installing' : 'still starting';
  let phase = 'the MCP handshake';
  let expired: 'idle' | 'total' | undefined;
  let lastDetailAt = 0;

  const session: ServerSession = new ServerSession({
    ...o.session,
    serverName: o.serverName,
    spec: o.spec,
    clientInfo: o.clientInfo,
    probeTimeoutMs: Math.min(o.probeMs, o.startMs),
    onStderrLine: (line) => {
      if (!session.ready) {
        watchdog.activity();
        // Show what the server says while it is busy starting; throttled, a flood must not flood the UI.
        const now = o.now();
        if ((runner || watchdog.wasExtended) && now - lastDetailAt >= 250) {
          lastDetailAt = now;
          o.onDetail(`${busy}… (${line.length > 100 ? `${line.slice(0, 100)}…` : line})`);
        }
      }
      o.session.onStderrLine?.(line);
    },
    onSpawn: (proc) => {
      o.session.onSpawn(proc);
      o.onDetail(o.prior ? 'connecting' : 'negotiating the protocol version');
    },
    onClose: () => o.session.onClose(session),
    onTools: (items) => o.session.onTools(session, items),
    onListStale: (kind) => o.session.onListStale(session, kind),
  });
  o.onSession(session);
  const remote = o.spec.remote && { url: o.spec.remote.url, mode: o.session.remoteMode ?? 'streamable-http' };
  o.onDetail(remote ? `connecting to ${new URL(remote.url).host}${remote.mode === 'sse' ? ' (HTTP+SSE)' : ''}` : 'launching');
  const watchdog = new StartWatchdog({
    idleTimeoutMs: o.startMs,
    maxTotalMs: o.startMaxMs,
    now: o.now,
    onExpire: (cause) => {
      expired = cause;
      void session.shutdown();
    },
    onExtended: () => o.onDetail(`${busy}… (${session.transport.stderr?.lastLine ?? 'no output yet'})`),
  });

  try {
    await session.connect(o.prior, o.startMaxMs);
    const identity = session.identity();
    const catalog = await fetchCatalog(
      session.client,
      identity.capabilities,
      { timeout: o.requestMs },
      {
        serverName: o.serverName,
        onPhase: (what) => {
          const first = phase === 'the MCP handshake';
          phase = `listing its ${what}`;
          // The first phase names every list; later ones only report progress on a long list.
          if (first || what.endsWith('so far)')) o.onDetail(`listing ${what}`);
        },
      },
    );
    watchdog.stop();
    return { kind: 'ready', session, identity, catalog };
  } catch (error) {
    watchdog.stop();
    // Read before our own shutdown overwrites nothing: the first close report wins.
    const closeReport = session.transport.closeReport;
    const stderrTail = session.transport.stderr?.lines(10) ?? [];
    await o.endSession(session);
    const watchdogInfo = expired && { cause: expired, idleTimeoutMs: o.startMs, maxTotalMs: o.startMaxMs };
    const refusal = session.transport instanceof RemoteServerTransport ? session.transport.refusal : undefined;
    const verdict = explainStartFailure(
      { serverName: o.serverName, phase, watchdog: watchdogInfo, closeReport, stderrTail, remote, refusal },
      error,
    );
    if (verdict.kind !== 'fail') return verdict;
    if (verdict.refusal)
      return { kind: 'fail', reason: verdict.reason, retryable: false, exit: undefined, stderrTail, refusal: verdict.refusal };
    const launch = error instanceof LaunchError ? launchProblemOf(error) : undefined;
    const retryable = o.prior !== undefined && !expired && !(error instanceof LaunchError);
    return {
      kind: 'fail',
      reason: verdict.reason,
      retryable,
      exit: session.transport.process?.exit,
      stderrTail,
      ...(launch ? { launch } : {}),
    };
  }
}

/**
 * Starts with the cached era verdict, adjusting it when that fails for era reasons: a server that
 * hangs up on the `server/discover` probe is retried as legacy without probing, and a failure
 * under a cached verdict (which may be stale: the server was upgraded or downgraded) is retried
 * once with fresh negotiation. Stops early when `cancelled()` turns true (the user stopped it).
 */
export async function startWithEraFallbacks(
  options: Omit<StartAttemptOptions, 'prior'>,
  cachedPrior: PriorDiscovery | undefined,
  cancelled: () => boolean,
  onStaleVerdict: (reason: string) => void,
): Promise<Extract<StartAttemptOutcome, { kind: 'ready' | 'fail' }>> {
  let prior = cachedPrior;
  let retriedWithoutPrior = prior === undefined;
  let session = options.session;
  for (;;) {
    const outcome = await attemptStart({ ...options, session, prior });
    if (outcome.kind === 'ready') return outcome;
    if (outcome.kind === 'retry-sse') {
      if (cancelled())
        return {
          kind: 'fail',
          reason: `Server "${options.serverName}" was stopped while connecting.`,
          retryable: false,
          exit: undefined,
          stderrTail: [],
        };
      // HTTP+SSE servers predate server/discover: go straight to initialize.
      session = { ...session, remoteMode: 'sse' };
      prior = { kind: 'legacy' };
      retriedWithoutPrior = true;
      continue;
    }
    if (outcome.kind === 'retry-legacy') {
      const reason = `Server "${options.serverName}" closed the connection during startup.`;
      if (cancelled() || prior?.kind === 'legacy') return { kind: 'fail', reason, retryable: false, exit: undefined, stderrTail: [] };
      prior = { kind: 'legacy' };
      continue;
    }
    if (cancelled() || !outcome.retryable || retriedWithoutPrior) return outcome;
    onStaleVerdict(outcome.reason);
    prior = undefined;
    retriedWithoutPrior = true;
  }
}
