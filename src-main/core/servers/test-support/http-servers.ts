/**
 * Remote MCP servers for tests, as real processes on 127.0.0.1: server-everything in its
 * `streamableHttp` and `sse` modes, the session-server fixture (spec-true 404 for a forgotten
 * session), and the modern-http-server fixture (2026-07-28 era, stateless). Each runs in its own
 * process group and is stopped, group and all, when the test ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { waitFor } from '../wait';
import { everythingHttp, EVERYTHING_LISTENING, freePort } from './everything-http';
import { expectProcessGone, FIXTURES_DIR } from '../../../test-support/fixtures';

export interface HttpServerProcess {
  /** The MCP endpoint (`/mcp`, or `/sse` for server-everything's sse mode). */
  url: string;
  origin: string;
  port: number;
  /** stdout and stderr lines so far. */
  output: string[];
  /** Kills the process group and waits until it is gone. */
  stop(): Promise<void>;
}

function run(
  args: string[],
  env: Record<string, string>,
  ready: (output: string[]) => number | undefined,
  urlPath: string,
): Promise<HttpServerProcess> {
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  let exited = false;
  child.on('exit', () => (exited = true));
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      output.push(...lines);
    });
  }
  const pid = child.pid!;
  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await expectProcessGone(pid);
  };
  onTestFinished(stop);
  return waitFor(
    () => {
      if (exited) throw new Error(`HTTP test server exited early:\n${output.join('\n')}`);
      const port = ready(output);
      return port === undefined ? undefined : port;
    },
    { timeoutMs: 20_000, what: 'the HTTP test server to listen' },
  ).then((port) => ({ url: `http://127.0.0.1:${port}${urlPath}`, origin: `http://127.0.0.1:${port}`, port, output, stop }));
}

/** server-everything over HTTP: `streamableHttp` (endpoint /mcp) or the legacy `sse` mode (endpoint /sse). */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<HttpServerProcess> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const launch = everythingHttp(mode, port);
    try {
      return await run(launch.args, launch.env, (out) => (out.some((l) => EVERYTHING_LISTENING.test(l)) ? port : undefined), launch.path);
    } catch (error) {
      // Someone took the port between our probe and its listen: try another.
      if (attempt < 3 && /already in use|EADDRINUSE/.test((error as Error).message)) continue;
      throw error;
    }
  }
}

/** The session-server fixture (e2e/fixtures/http/session-server.mjs), optionally on a given port (to come back after a kill). */
export function startSessionServer(port = 0): Promise<HttpServerProcess> {
  return run([path.join(FIXTURES_DIR, 'http', 'session-server.mjs'), '--port', String(port)], {}, announcedPort, '/mcp');
}

/** The port a fixture announced with its `{"port":N}` line, once it has. */
function announcedPort(output: string[]): number | undefined {
  const line = output.find((l) => l.startsWith('{"port":'));
  return line ? (JSON.parse(line) as { port: number }).port : undefined;
}

/**
 * The modern-http-server fixture (e2e/fixtures/http/modern-http-server.mjs): a stateless 2026-07-28
 * Streamable HTTP server on the real v2 SDK; optionally on a given port (to come back after a kill).
 */
export function startModernHttpServer(port = 0): Promise<HttpServerProcess> {
  return run([path.join(FIXTURES_DIR, 'http', 'modern-http-server.mjs'), '--port', String(port)], {}, announcedPort, '/mcp');
}

/** One request as the modern-http-server fixture saw it (headers absent when not sent). */
export interface SeenRequest {
  http: string;
  /** The JSON-RPC method of a POST body. */
  method?: string;
  protocolVersion?: string;
  sessionId?: string;
  mcpMethod?: string;
  mcpName?: string;
  /** The request carried `inputResponses` (a retry after `input_required`). */
  inputResponses: boolean;
  /** The `traceparent` header, and the one in the body's `params._meta`. */
  traceparent?: string;
  metaTraceparent?: string;
}

/** GET /_stats of the modern-http-server fixture: every request it received (oldest first), and how many tool runs were cancelled. */
export async function modernStats(server: HttpServerProcess): Promise<{ requests: SeenRequest[]; cancelled: number }> {
  const response = await fetch(`${server.origin}/_stats`);
  return (await response.json()) as { requests: SeenRequest[]; cancelled: number };
}

/**
 * The rate-limited-server fixture (e2e/fixtures/http/rate-limited-server.mjs): refuses its first
 * requests with 429 (or `--status 503`) and Retry-After, then behaves; `args` are its flags.
 */
export function startRateLimitedServer(args: string[] = [], port = 0): Promise<HttpServerProcess> {
  return run([path.join(FIXTURES_DIR, 'http', 'rate-limited-server.mjs'), '--port', String(port), ...args], {}, announcedPort, '/mcp');
}

/** One request the rate-limited server saw. */
export interface RateLimitedRequest {
  method: string;
  rpc?: string;
  refused: boolean;
  at: number;
}

/** GET /admin/stats of the rate-limited server: every request to /mcp, oldest first. */
export async function rateLimitedStats(server: HttpServerProcess): Promise<RateLimitedRequest[]> {
  const response = await fetch(`${server.origin}/admin/stats`);
  return ((await response.json()) as { requests: RateLimitedRequest[] }).requests;
}

/** GET /admin/stats of the session server. */
export async function sessionStats(server: HttpServerProcess): Promise<{ initialized: number; deleted: number; sessions: number }> {
  const response = await fetch(`${server.origin}/admin/stats`);
  return (await response.json()) as { initialized: number; deleted: number; sessions: number };
}
