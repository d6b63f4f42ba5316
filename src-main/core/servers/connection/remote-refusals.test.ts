/**
 * A remote server that refuses for a while (HTTP 429 Too Many Requests, 503 Service Unavailable) is
 * not an old server: Patchbay says it was asked to wait, honours Retry-After (seconds or an HTTP
 * date) before the next try — at start and when reconnecting — and keeps trying until it answers.
 * Real HTTP servers on 127.0.0.1 (e2e/fixtures/http/rate-limited-server.mjs), through the contract.
 */
import { describe, expect, it } from 'vitest';
import type { ServerRuntime } from '@contract';
import { startHost, type TestHost } from '../../../test-support/tool-host';
import { rateLimitedStats, startRateLimitedServer, type HttpServerProcess } from '../test-support/http-servers';
import { waitFor } from '../wait';

/** Every runtime the card showed for this server, in order. */
function runtimes(t: TestHost, id: string): ServerRuntime[] {
  return t.events.flatMap((e) => (e.name === 'serverUpdated' && e.payload.config.id === id ? [e.payload.runtime] : []));
}

async function untilReady(t: TestHost, id: string) {
  await waitFor(async () => (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
    timeoutMs: 20_000,
    what: `${id} to be ready`,
  });
}

/** Milliseconds from each refused request to the request after it. */
async function waitsAfterRefusals(server: HttpServerProcess): Promise<number[]> {
  const seen = await rateLimitedStats(server);
  return seen.flatMap((r, i) => (r.refused && seen[i + 1] ? [seen[i + 1].at - r.at] : []));
}

describe('a remote server that asks Patchbay to wait', () => {
  it('429 with Retry-After at start: says so, waits as asked, never tries the legacy transport, then connects', async () => {
    const server = await startRateLimitedServer(['--refuse', '2', '--retry-after', '1']);
    const t = startHost();
    const added = await t.api.addServer({ name: 'busy', transport: 'http', url: server.url });
    const id = added.config.id;
    const waiting = await t.next('serverUpdated', (v) => v.config.id === id && /asked Patchbay to wait/.test(v.runtime.detail ?? ''), 0);
    expect(waiting.runtime).toMatchObject({ status: 'starting', restart: { attempt: 1 } });
    expect(waiting.runtime.detail).toBe('asked Patchbay to wait (HTTP 429 Too Many Requests) — retrying in 1 s');
    await untilReady(t, id);

    const seen = await rateLimitedStats(server);
    // Up to the first answered request, only POSTs: the legacy HTTP+SSE transport (a GET first) was never tried.
    expect(seen.slice(0, seen.findIndex((r) => !r.refused) + 1).map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(seen.filter((r) => r.refused)).toHaveLength(2);
    for (const wait of await waitsAfterRefusals(server)) expect(wait).toBeGreaterThanOrEqual(950);
    expect(runtimes(t, id).filter((r) => r.status === 'error' || r.status === 'crashed')).toEqual([]);
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'hi' } }))).toContain('echo: hi');
    await server.stop();
  });

  it('503 with Retry-After as an HTTP date: temporarily unavailable, waits until that time', async () => {
    const server = await startRateLimitedServer(['--refuse', '1', '--status', '503', '--retry-after', '2', '--retry-after-date']);
    const t = startHost();
    const id = (await t.api.addServer({ name: 'overloaded', transport: 'http', url: server.url })).config.id;
    const waiting = await t.next('serverUpdated', (v) => v.config.id === id && /temporarily unavailable/.test(v.runtime.detail ?? ''), 0);
    expect(waiting.runtime.detail).toMatch(/^temporarily unavailable \(HTTP 503 Service Unavailable\) — retrying in [12] s$/);
    await untilReady(t, id);
    // An HTTP date has whole seconds: two seconds ahead is at least one.
    for (const wait of await waitsAfterRefusals(server)) expect(wait).toBeGreaterThanOrEqual(950);
    await server.stop();
  });

  it('honours Retry-After in the reconnect backoff after the connection was lost', async () => {
    let server = await startRateLimitedServer(['--refuse', '0']);
    const t = startHost();
    const id = await t.addServer({ name: 'flaky-busy', transport: 'http', url: server.url });
    const { port } = server;
    await server.stop();
    await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'lost' } });
    await t.next('serverUpdated', (v) => v.config.id === id && v.runtime.status === 'crashed', 0);

    server = await startRateLimitedServer(['--refuse', '1', '--retry-after', '2'], port);
    const waiting = await t.next('serverUpdated', (v) => v.config.id === id && /asked Patchbay to wait/.test(v.runtime.detail ?? ''), 0);
    expect(waiting.runtime.detail).toBe('asked Patchbay to wait (HTTP 429 Too Many Requests) — retrying in 2 s');
    await untilReady(t, id);
    for (const wait of await waitsAfterRefusals(server)) expect(wait).toBeGreaterThanOrEqual(1950);
    await server.stop();
  });

  it('with automatic retries off, says the server asked to wait and stops there', async () => {
    const server = await startRateLimitedServer(['--refuse', '5', '--retry-after', '30']);
    const t = startHost();
    const id = (await t.api.addServer({ name: 'no-retry', transport: 'http', url: server.url, autoRestart: false })).config.id;
    const failed = await t.next('serverUpdated', (v) => v.config.id === id && v.runtime.status === 'error', 0);
    expect(failed.runtime.reason).toBe(
      `Server "no-retry" asked Patchbay to wait (HTTP 429 Too Many Requests from ${new URL(server.url).host}; it asked for 30 s). ` +
        'Automatic retries are off: press Start to try again.',
    );
    expect((await rateLimitedStats(server)).every((r) => r.method === 'POST')).toBe(true);
    await server.stop();
  });
});
