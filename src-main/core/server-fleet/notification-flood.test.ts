import { describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from '@contract';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { startSessionServer } from '../servers/test-support/http-servers';
import { waitFor } from '../servers/wait';

const textOf = (outcome: ToolCallOutcome) => outcome.blocks.map((b) => ('text' in b ? b.text : '')).join('');

/** The Host-stream entries of a server that count dropped messages, once there is one. */
function dropEntries(t: TestHost, serverId: string) {
  return waitFor(
    async () => {
      const page = await t.api.queryLogs({ serverId, stream: 'host', text: 'dropped' });
      return page.entries.length > 0 ? page.entries : undefined;
    },
    { timeoutMs: 10_000, what: 'the Host log entry counting dropped messages' },
  );
}

const droppedIn = (entries: { text: string }[]) =>
  entries.reduce((sum, e) => sum + Number(/^([\d,]+)/.exec(e.text)![1].replace(/,/g, '')), 0);

describe('a server flooding notifications', () => {
  it('gets its answer through, leaves other servers answering, and the Host log counts what was dropped', { timeout: 90_000 }, async () => {
    const t = startHost();
    const flood = await t.fixture('notification-flood.mjs');
    const echo = await t.fixture('echo.mjs');

    let settled = false;
    const call = t.api.runTool({ serverId: flood, tool: 'flood', args: { seconds: 4, kind: 'both' } }).finally(() => (settled = true));
    // The flood is under way once its log messages reach the Messages stream.
    await t.next('logAppended', (p) => p.entries.some((e) => e.serverId === flood && e.stream === 'messages'));
    const during = await t.api.runTool({ serverId: echo, tool: 'echo', args: { message: 'during the flood' } });
    expect(settled).toBe(false);
    expect(during.status).toBe('ok');
    expect(textOf(during)).toBe('echo: during the flood');

    const outcome = await call;
    expect(outcome.status).toBe('ok');
    const sent = Number(/flooded (\d+) notifications/.exec(textOf(outcome))?.[1]);
    expect(sent).toBeGreaterThan(10_000);

    const drops = await dropEntries(t, flood);
    expect(drops[0].text).toMatch(/^[\d,]+ messages dropped from "notification-flood": notifications arrived faster than [\d,]+ a second/);
    const dropped = droppedIn(drops);
    expect(dropped).toBeGreaterThan(sent / 2);
    expect(dropped).toBeLessThan(sent);

    // The server stays usable after its flood.
    const after = await t.api.runTool({ serverId: flood, tool: 'echo', args: { message: 'after' } });
    expect(textOf(after)).toBe('echo: after');
  });

  it(
    'sheds a flood of 200,000 a second unparsed: the answer comes within 1 s of its end, memory stays flat, others answer',
    { timeout: 120_000 },
    async () => {
      const t = startHost();
      const flood = await t.fixture('notification-flood.mjs');
      const echo = await t.fixture('echo.mjs');
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      try {
        const call = t.api.runTool({ serverId: flood, tool: 'flood', args: { seconds: 5, kind: 'both', rate: 200_000 } });
        await t.next('logAppended', (p) => p.entries.some((e) => e.serverId === flood && e.stream === 'messages'));
        const during = await t.api.runTool({ serverId: echo, tool: 'echo', args: { message: 'during the flood' } });
        expect(textOf(during)).toBe('echo: during the flood');
        const outcome = await call;
        const answeredAt = Date.now();
        const [, sent, endedAt] = /flooded (\d+) notifications in 5 s, ended at (\d+)/.exec(textOf(outcome))!.map(Number);
        // Its answer is not held behind its own flood (up to 4 MB of it still unread when it ended).
        expect(sent).toBeGreaterThan(50_000);
        expect(answeredAt - endedAt).toBeLessThan(1000);
        expect(peak - before).toBeLessThan(50 * 1024 * 1024);
        // Shed, not parsed: most of it is counted in the Host log (one entry a second).
        await waitFor(
          async () => droppedIn((await t.api.queryLogs({ serverId: flood, stream: 'host', text: 'dropped' })).entries) > sent / 2,
          { timeoutMs: 10_000, what: 'the Host log to count most of the flood as dropped' },
        );
      } finally {
        clearInterval(sampler);
      }
    },
  );

  it('over HTTP too: the answer comes through and the excess is counted in the Host log', { timeout: 60_000 }, async () => {
    const server = await startSessionServer();
    const t = startHost();
    const id = await t.addServer({ name: 'remote-flood', transport: 'http', url: server.url });
    const outcome = await t.api.runTool({ serverId: id, tool: 'flood', args: { count: 20_000 } });
    expect(textOf(outcome)).toBe('flooded 20000 notifications');
    const drops = await dropEntries(t, id);
    expect(drops[0].text).toMatch(/^[\d,]+ messages dropped from "remote-flood": notifications arrived faster than/);
    expect(droppedIn(drops)).toBeGreaterThan(0);
    expect(droppedIn(drops)).toBeLessThan(20_000);
    await t.api.stopServer({ id });
    await server.stop();
  });
});
