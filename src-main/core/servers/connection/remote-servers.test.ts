/**
 * Remote servers end to end in the core: real HTTP servers on 127.0.0.1 (server-everything in its
 * Streamable HTTP and legacy SSE modes, the spec-true session-server fixture), added through the
 * contract like the settings form adds them, used through the contract like the Tools tab uses them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../chat/test-support/scripted-llm';
import { startHost, type TestHost } from '../../../test-support/tool-host';
import { sessionStats, startEverythingHttp, startSessionServer } from '../test-support/http-servers';
import { waitFor } from '../wait';
import { approveSampling, sendSampling, answerElicitation } from '../../../test-support/answers';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

async function runtimeOf(t: TestHost, id: string) {
  return (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)!.runtime;
}

describe.each([
  { mode: 'streamableHttp' as const, transport: 'streamable-http' },
  { mode: 'sse' as const, transport: 'sse' },
])('server-everything over $mode', ({ mode, transport }) => {
  it('connects, runs tools with progress, and answers sampling and elicitation over HTTP', async () => {
    const server = await startEverythingHttp(mode);
    const t = startHost();
    await t.api.setApiKey({ apiKey: 'sk-ant-remote-test' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url });
    await llm.reset();
    const id = await t.addServer({ name: 'everything-remote', transport: 'http', url: server.url });

    const runtime = await runtimeOf(t, id);
    expect(runtime).toMatchObject({
      status: 'ready',
      era: 'legacy',
      serverInfo: { name: expect.stringMatching(/everything/i) },
      remote: { transport },
    });
    expect(runtime.pid).toBeUndefined();
    if (transport === 'streamable-http') expect(runtime.remote?.sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(runtime.counts?.tools).toBeGreaterThan(5);

    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'get-sum', args: { a: 2, b: 40 } }))).toContain('42');

    // Progress notifications reach the caller over HTTP too.
    const callId = randomUUID();
    const long = t.api.runTool({ serverId: id, tool: 'trigger-long-running-operation', args: { duration: 1, steps: 3 }, callId });
    await t.next('toolCallProgress', (p) => p.callId === callId && p.progress >= 1);
    expect(JSON.stringify(await long)).toMatch(/completed/i);

    // Sampling: the server asks in the middle of a tool call, the user approves, the LLM answers.
    await llm.script([{ type: 'text', text: `Sampled over ${mode}.` }]);
    const sampling = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'Say hi', maxTokens: 20 } });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({ serverName: 'everything-remote', toolCall: { tool: 'trigger-sampling-request' } });
    await approveSampling(t.api, { id: asked.id, model: asked.model });
    const review = await t.updated('sampling', (v) => v.id === asked.id && v.stage === 'review');
    await sendSampling(t.api, { id: asked.id, text: review.response!.text });
    expect(JSON.stringify(await sampling)).toContain(`Sampled over ${mode}.`);

    // Elicitation: a form the user fills in.
    const elicit = t.api.runTool({ serverId: id, tool: 'trigger-elicitation-request', args: {} });
    const form = await t.asked('elicitation');
    await answerElicitation(t.api, {
      id: form.id,
      action: 'accept',
      content: { name: 'Grace Hopper', integer: 9, check: true, untitledMultipleSelectEnum: ['Piano'] },
    });
    expect(JSON.stringify(await elicit)).toContain('Name: Grace Hopper');

    await t.api.stopServer({ id });
    if (transport === 'streamable-http') {
      // The session is ended with DELETE, not just abandoned.
      await waitFor(() => server.output.some((line) => /session termination request/i.test(line)), { what: 'the DELETE of the session' });
    }
  });
});

describe('sessions and the network', () => {
  it('re-initializes when the server forgets the session: a short reconnect, no error, the call succeeds', async () => {
    const server = await startSessionServer();
    const t = startHost();
    const id = await t.addServer({ name: 'sessions', transport: 'http', url: server.url });
    const first = (await runtimeOf(t, id)).remote?.sessionId;
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'one' } }))).toContain('echo: one');

    await fetch(`${server.origin}/admin/forget`, { method: 'POST' });
    const since = t.events.length;
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'two' } }))).toContain('echo: two');

    const statuses = t.events
      .slice(since)
      .flatMap((e) => (e.name === 'serverUpdated' && e.payload.config.id === id ? [e.payload.runtime] : []));
    expect(statuses.some((r) => r.status === 'starting' && /session expired, reconnecting/.test(r.detail ?? ''))).toBe(true);
    expect(statuses.filter((r) => r.status === 'error' || r.status === 'crashed')).toEqual([]);
    const after = await runtimeOf(t, id);
    expect(after).toMatchObject({ status: 'ready' });
    expect(after.remote?.sessionId).not.toBe(first);
    expect((await sessionStats(server)).initialized).toBe(2);
  });

  it('ends the session with DELETE when stopped', async () => {
    const server = await startSessionServer();
    const t = startHost();
    const id = await t.addServer({ name: 'sessions', transport: 'http', url: server.url });
    await t.api.stopServer({ id });
    expect(await sessionStats(server)).toMatchObject({ initialized: 1, deleted: 1, sessions: 0 });
  });

  it('reconnects with backoff after the network is lost, and says what happened meanwhile', async () => {
    let server = await startSessionServer();
    const t = startHost();
    const id = await t.addServer({ name: 'flaky', transport: 'http', url: server.url });
    const { port } = server;
    await server.stop();

    const lost = await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'lost' } });
    expect(lost).toMatchObject({
      status: 'protocol_error',
      error: {
        kind: 'crashed',
        message: expect.stringMatching(/^Server "flaky" stopped while handling tools\/call "echo"\. Server "flaky": connection lost \(/),
      },
    });
    const crashed = await t.next('serverUpdated', (v) => v.config.id === id && v.runtime.status === 'crashed', 0);
    expect(crashed.runtime.reason).toMatch(
      /^Server "flaky": connection lost \((the connection dropped|connection refused|connection reset)/,
    );
    expect(crashed.runtime.restart).toMatchObject({ attempt: 1 });

    server = await startSessionServer(port);
    await waitFor(async () => (await runtimeOf(t, id)).status === 'ready', { timeoutMs: 20_000, what: 'the reconnect' });
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'echo', args: { text: 'back' } }))).toContain('echo: back');
  });

  it('names the server and the cause when nothing listens at the URL', async () => {
    const server = await startSessionServer();
    await server.stop();
    const t = startHost();
    const added = await t.api.addServer({ name: 'nowhere', transport: 'http', url: server.url });
    const failed = await t.next('serverUpdated', (v) => v.config.id === added.config.id && v.runtime.status === 'error', 0);
    expect(failed.runtime.reason).toBe(
      `Server "nowhere" cannot be reached at ${server.url}: connection refused (127.0.0.1:${server.port}).`,
    );
  });

  it('refuses a remote server without a valid URL, on the URL field', async () => {
    const t = startHost();
    await expect(t.api.addServer({ name: 'bad', transport: 'http', url: 'ftp://example.com' })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [{ path: ['url'], message: 'Enter an http:// or https:// URL' }],
    });
    await expect(t.api.addServer({ name: 'bad', transport: 'http' })).rejects.toMatchObject({
      data: [{ path: ['url'], message: 'URL is required' }],
    });
  });
});
