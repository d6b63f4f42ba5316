/**
 * Remote servers of the 2026-07-28 era, end to end in the core: the modern-http-server fixture (the
 * real v2 SDK server, stateless Streamable HTTP) added and used through the contract like the
 * settings form and the Tools tab do, with the fixture's record of the requests it received as
 * the witness of what went over the wire.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startHost, type TestHost } from '../../../test-support/tool-host';
import { modernStats, startModernHttpServer } from '../test-support/http-servers';
import { waitFor } from '../wait';
import { answerElicitation } from '../../../test-support/answers';

async function runtimeOf(t: TestHost, id: string) {
  return (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)!.runtime;
}

describe('a 2026-07-28 server over Streamable HTTP', () => {
  it('negotiates the modern era statelessly and runs tools, progress and an input_required elicitation', async () => {
    const server = await startModernHttpServer();
    const t = startHost();
    const id = await t.addServer({ name: 'modern-remote', transport: 'http', url: server.url });

    const runtime = await runtimeOf(t, id);
    expect(runtime).toMatchObject({
      status: 'ready',
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'modern-http-server' },
      remote: { transport: 'streamable-http' },
      counts: { tools: 5, resources: 2, prompts: 1 },
    });
    expect(runtime.remote?.sessionId).toBeUndefined();

    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'over 2026' } }))).toContain('echo: over 2026');

    // Progress arrives on the call's own SSE response stream.
    const callId = randomUUID();
    const slow = t.api.runTool({ serverId: id, tool: 'slow', args: { ms: 500, steps: 4 }, callId });
    expect(await t.next('toolCallProgress', (p) => p.callId === callId)).toMatchObject({
      progress: expect.any(Number),
      total: 4,
      message: expect.stringMatching(/^step [1-4]$/),
    });
    expect(JSON.stringify(await slow)).toContain('slow: done after 4 steps');

    // The server answers input_required; the user fills in the form; the retry carries the answer.
    const asking = t.api.runTool({ serverId: id, tool: 'ask-name', args: {} });
    const form = await t.asked('elicitation');
    expect(form).toMatchObject({
      serverName: 'modern-remote',
      mode: 'form',
      message: 'What is your name?',
      toolCall: { tool: 'ask-name' },
    });
    await answerElicitation(t.api, { id: form.id, action: 'accept', content: { name: 'Grace Hopper' } });
    expect(JSON.stringify(await asking)).toContain('Hello, Grace Hopper!');

    const { requests } = await modernStats(server);
    // Negotiated with server/discover, never with a 2025 initialize handshake.
    expect(requests[0]).toMatchObject({ http: 'POST', method: 'server/discover' });
    expect(requests.some((r) => r.method === 'initialize')).toBe(false);
    // Every request says its version and method in headers, and none carries a session.
    for (const request of requests) {
      expect(request).toMatchObject({ http: 'POST', protocolVersion: '2026-07-28', mcpMethod: request.method });
      expect(request.sessionId).toBeUndefined();
    }
    expect(requests.filter((r) => r.mcpName === 'ask-name').map((r) => r.inputResponses)).toEqual([false, true]);

    // Stateless: stopping has no session to end, so nothing but POSTs ever reached the server.
    await t.api.stopServer({ id });
    expect((await runtimeOf(t, id)).status).toBe('stopped');
    expect((await modernStats(server)).requests.filter((r) => r.http !== 'POST')).toEqual([]);
  });

  it('cancels a call by closing its response stream, not with notifications/cancelled', async () => {
    const server = await startModernHttpServer();
    const t = startHost();
    const id = await t.addServer({ name: 'modern-cancel', transport: 'http', url: server.url });

    const callId = randomUUID();
    const running = t.api.runTool({ serverId: id, tool: 'slow', args: { ms: 60_000, steps: 600 }, callId });
    await t.next('toolCallProgress', (p) => p.callId === callId);
    await t.api.cancelToolCall({ callId });
    expect(await running).toMatchObject({ status: 'cancelled' });

    // The server noticed (its handler's signal fired) although no cancellation message was sent.
    await waitFor(async () => (await modernStats(server)).cancelled === 1, { what: 'the server to see the cancellation' });
    expect((await modernStats(server)).requests.some((r) => r.method === 'notifications/cancelled')).toBe(false);
    // The connection is fine: only that request ended.
    expect(await runtimeOf(t, id)).toMatchObject({ status: 'ready' });
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'still here' } }))).toContain('echo: still here');
  });

  it('fails a call cut off by the server going away, says the connection was lost, and reconnects when it is back', async () => {
    let server = await startModernHttpServer();
    const t = startHost();
    const id = await t.addServer({ name: 'modern-flaky', transport: 'http', url: server.url });
    const { port } = server;

    const callId = randomUUID();
    const cut = t.api.runTool({ serverId: id, tool: 'slow', args: { ms: 60_000, steps: 600 }, callId });
    await t.next('toolCallProgress', (p) => p.callId === callId);
    await server.stop();

    // At once, not after the request timeout: the 2026 era cannot resume the stream.
    expect(await cut).toMatchObject({
      status: 'protocol_error',
      error: {
        kind: 'crashed',
        message: expect.stringMatching(
          /^Server "modern-flaky" stopped while handling tools\/call "slow"\. Server "modern-flaky": connection lost \(the connection dropped\)/,
        ),
      },
    });
    const crashed = await t.next('serverUpdated', (v) => v.config.id === id && v.runtime.status === 'crashed', 0);
    expect(crashed.runtime.reason).toBe('Server "modern-flaky": connection lost (the connection dropped).');
    expect(crashed.runtime.restart).toMatchObject({ attempt: 1 });

    server = await startModernHttpServer(port);
    await waitFor(async () => (await runtimeOf(t, id)).status === 'ready', { timeoutMs: 20_000, what: 'the reconnect' });
    expect(await runtimeOf(t, id)).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'back' } }))).toContain('echo: back');
  });
});
