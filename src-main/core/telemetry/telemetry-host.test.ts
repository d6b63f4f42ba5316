/**
 * Telemetry through the whole host: a scripted model calls a real fixture server through consent;
 * the timeline of the turn comes from what the host records; with export on, a local OTLP/HTTP
 * receiver decodes the spans (names and attributes per the MCP and GenAI conventions) and the
 * fixture server sees the same trace id in `params._meta.traceparent`.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { protocolLinesFilter, type TelemetryInput, type TimelineSpan } from '@contract';
import { answerElicitation, answerTool, rejectSampling } from '../../test-support/answers';
import { FIXTURES_DIR } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { modernStats, startModernHttpServer } from '../servers/test-support/http-servers';
import { useScriptedLlm } from '../chat/test-support/use-scripted-llm';
import { waitFor } from '../servers/wait';
import { startOtlpReceiver } from './test-support/otlp-receiver';

const llm = useScriptedLlm();
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
afterEach(async () => {
  await receiver?.stop().catch(() => undefined);
});

const on = (endpoint: string, extra: Partial<TelemetryInput> = {}): TelemetryInput => ({
  enabled: true,
  endpoint,
  protocol: 'http/json',
  headers: [{ name: 'x-api-key', value: 'telemetry-secret-1234' }],
  propagate: true,
  exportContent: false,
  ...extra,
});

/** A host with the scripted model and the trace-meta fixture server; returns the server's id. */
async function setUp(t: TestHost) {
  await t.api.setApiKey({ apiKey: 'sk-ant-telemetry' });
  await t.api.updateSettings({ anthropicBaseUrl: llm.url });
  return t.addServer({ name: 'tracer', command: process.execPath, args: [path.join(FIXTURES_DIR, 'trace-meta.mjs')] });
}

/** Runs one turn: the model calls `meta`, the user allows it, the model answers. */
async function turnWithCall(t: TestHost, whileAsking: () => Promise<void> = async () => undefined) {
  await llm.reset();
  await llm.script([
    { type: 'tool_use', calls: [{ nameEndsWith: '__meta', input: {} }] },
    { type: 'text', text: 'Done.' },
  ]);
  const conversation = await t.api.createConversation();
  const mark = t.events.length;
  await t.api.sendMessage({ conversationId: conversation.id, text: 'Trace this' });
  const question = await t.asked('tool', undefined, mark);
  await whileAsking();
  await answerTool(t.api, { id: question.id, decision: 'allow_once' });
  await t.next('conversationUpdated', (c) => c.id === conversation.id && c.turn === 'idle' && c.messageCount === 4, mark);
  const messages = (await t.api.listMessages({ conversationId: conversation.id })).messages;
  // The result's last part is the fixture's echo (the first is the line marking it as data).
  const metaSeen = JSON.parse(
    ((await llm.messageRequests())[1].body!.messages.at(-1)!.content as unknown as { content: { text: string }[] }[])[0].content.at(-1)!
      .text,
  ) as Record<string, unknown>;
  return { conversation, messages, metaSeen };
}

describe('telemetry', () => {
  it('is off by default: a turn has a timeline, nothing is exported and requests carry no trace context', async () => {
    receiver = await startOtlpReceiver();
    const t = startHost();
    expect(await t.api.getTelemetry()).toMatchObject({ enabled: false, exporting: false, dropped: 0 });
    await setUp(t);
    const { conversation, messages, metaSeen } = await turnWithCall(t);
    expect(metaSeen.traceparent).toBeUndefined();
    const timeline = await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: messages.at(-1)!.id });
    expect(timeline?.traceId).toBeUndefined();
    expect(timeline?.spans.map((s) => s.kind)).toEqual(['turn', 'model', 'consent', 'tool', 'model']);
    const tool = timeline!.spans.find((s) => s.kind === 'tool')!;
    expect(tool).toMatchObject({ serverName: 'tracer', tool: 'meta', status: 'ok' });
    expect(tool.bytesOut).toBeGreaterThan(0);
    expect(tool.bytesIn).toBeGreaterThan(0);
    expect(timeline!.spans.find((s) => s.kind === 'consent')).toMatchObject({ status: 'allowed' });
    expect(timeline!.spans.find((s) => s.kind === 'model')).toMatchObject({ model: 'claude-sonnet-5-5', inputTokens: expect.any(Number) });
    expect(receiver.spans).toEqual([]);
  });

  it('a tool-search round is its own bar; each call bar names its card, its server and its request id', async () => {
    const t = startHost();
    const serverId = await setUp(t);
    await t.api.updateSettings({ toolSearch: 'always' });
    await llm.reset();
    await llm.script([
      { type: 'find_tool', nameEndsWith: '__meta', query: 'meta', input: {} },
      { type: 'text', text: 'Found and ran.' },
    ]);
    const conversation = await t.api.createConversation();
    const mark = t.events.length;
    await t.api.sendMessage({ conversationId: conversation.id, text: 'Search, then call' });
    await answerTool(t.api, { id: (await t.asked('tool', undefined, mark)).id, decision: 'allow_once' });
    await t.next('conversationUpdated', (c) => c.id === conversation.id && c.turn === 'idle' && c.messageCount === 6, mark);
    const messages = (await t.api.listMessages({ conversationId: conversation.id })).messages;
    const timeline = (await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: messages.at(-1)!.id }))!;
    expect(timeline.spans.map((s) => s.kind)).toEqual(['turn', 'model', 'search', 'model', 'consent', 'tool', 'model']);
    const search = timeline.spans.find((s) => s.kind === 'search')!;
    expect(search).toMatchObject({ label: 'Tool search “meta”: 2 tools found', status: 'ok', durationMs: expect.any(Number) });
    const searchUse = messages[1]!.content.find((b) => b.type === 'tool_use')!;
    expect(search.toolUseId).toBe(searchUse.type === 'tool_use' && searchUse.id);
    const callUse = messages[3]!.content.find((b) => b.type === 'tool_use')!;
    const tool = timeline.spans.find((s) => s.kind === 'tool')!;
    expect(tool).toMatchObject({ serverId, requestId: expect.any(String), toolUseId: callUse.type === 'tool_use' && callUse.id });
    expect(timeline.spans.find((s) => s.kind === 'consent')!.toolUseId).toBe(tool.toolUseId);
    // The call's record (its audit entry) opens the same turn by its call id.
    expect((await t.api.getTurnTimeline({ callId: tool.callId! }))?.spans.map((s) => s.id)).toEqual(timeline.spans.map((s) => s.id));
  });

  it('a failed model request stays in its turn as a failed bar; the Retry is a turn of its own', async () => {
    const t = startHost();
    await setUp(t);
    await llm.reset();
    await llm.script([
      { type: 'error', status: 529, errorType: 'overloaded_error', message: 'Overloaded' },
      { type: 'text', text: 'Back again.' },
    ]);
    const conversation = await t.api.createConversation();
    const mark = t.events.length;
    await t.api.sendMessage({ conversationId: conversation.id, text: 'Hello' });
    await t.next('conversationUpdated', (c) => c.id === conversation.id && c.turn === 'idle' && c.lastError !== undefined, mark);
    const [asked] = (await t.api.listMessages({ conversationId: conversation.id })).messages;
    const failed = (await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: asked!.id }))!;
    expect(failed.spans.map((s) => [s.kind, s.status])).toEqual([
      ['turn', undefined],
      ['model', 'error'],
    ]);
    expect(failed.spans[1]!.label).toMatch(/^Failed \(overloaded\): /);
    expect(failed.spans.every((s) => s.durationMs !== undefined)).toBe(true);
    const again = t.events.length;
    await t.api.retryTurn({ conversationId: conversation.id });
    await t.next('conversationUpdated', (c) => c.id === conversation.id && c.turn === 'idle' && c.messageCount === 2, again);
    const answer = (await t.api.listMessages({ conversationId: conversation.id })).messages.at(-1)!;
    const retried = (await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: answer.id }))!;
    expect(retried.spans.map((s) => [s.kind, s.status])).toEqual([
      ['turn', undefined],
      ['model', 'end_turn'],
    ]);
  });

  it('a call an MCP App makes has its own timeline, from its record (the audit entry’s call id)', async () => {
    const t = startHost();
    const serverId = await setUp(t);
    await t.api.setToolPolicy({ serverId, tool: 'meta', policy: 'allow' });
    const done = await t.host.tools.callToolWithConsent({ serverId, tool: 'meta', args: {}, origin: 'app' });
    expect(done.status).toBe('ok');
    const entry = (await t.api.listToolAudit({})).entries.find((e) => e.origin === 'app')!;
    const timeline = await t.api.getTurnTimeline({ callId: entry.callId });
    expect(timeline?.spans.map((s) => [s.kind, s.label])).toEqual([
      ['turn', 'Call from an app'],
      ['tool', 'tracer › meta'],
    ]);
    expect(timeline!.spans[1]).toMatchObject({ serverId, status: 'ok', requestId: expect.any(String) });
  });

  /** The lines of the server's Protocol log a bar's Protocol log link finds (what the Logs page's filter asks the host). */
  const protocolLines = async (t: TestHost, bar: TimelineSpan, count: number) =>
    waitFor(
      async () => {
        const { entries } = await t.api.queryLogs({ serverId: bar.serverId!, stream: 'protocol', text: protocolLinesFilter(bar) });
        return entries.length >= count ? entries.map((e) => e.text) : undefined;
      },
      { what: `the Protocol log lines of ${bar.label}` },
    );

  it('an app’s call that waited for consent: its turn says who asked; its bar finds its request and result in the Protocol log', async () => {
    const t = startHost();
    const serverId = await setUp(t);
    const mark = t.events.length;
    const done = t.host.tools.callToolWithConsent({ serverId, tool: 'meta', args: {}, origin: 'app' });
    await answerTool(t.api, { id: (await t.asked('tool', undefined, mark)).id, decision: 'allow_once' });
    expect((await done).status).toBe('ok');
    const entry = (await t.api.listToolAudit({})).entries.find((e) => e.origin === 'app')!;
    const timeline = (await t.api.getTurnTimeline({ callId: entry.callId }))!;
    expect(timeline.spans.map((s) => [s.kind, s.label])).toEqual([
      ['turn', 'Call from an app'],
      ['consent', 'Waiting for your answer'],
      ['tool', 'tracer › meta'],
    ]);
    const call = timeline.spans[2]!;
    expect(call.requestInitiator).toBe('the app of tracer');
    const lines = await protocolLines(t, call, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^→ tools/call #${call.requestId} — from the app of tracer \\(`));
    expect(lines[1]).toMatch(new RegExp(`^← result of tools/call #${call.requestId} — for the app of tracer \\(`));
  });

  it('sampling and elicitation bars nest under their call and name the server’s request: its lines in the Protocol log', async () => {
    const t = startHost();
    await t.api.setApiKey({ apiKey: 'sk-ant-telemetry' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url });
    const id = await t.everything();
    const cases = [
      { tool: 'trigger-sampling-request', kind: 'sampling', method: 'sampling/createMessage' },
      { tool: 'trigger-elicitation-request', kind: 'elicitation', method: 'elicitation/create' },
    ] as const;
    for (const { tool, kind, method } of cases) {
      const mark = t.events.length;
      const run = t.api.runTool({ serverId: id, tool, args: kind === 'sampling' ? { prompt: 'x' } : {} });
      const asked = await t.asked(kind, undefined, mark);
      if (kind === 'sampling') await rejectSampling(t.api, { id: asked.id });
      else await answerElicitation(t.api, { id: asked.id, action: 'decline' });
      await run;
      const started = await t.next('toolCallStarted', (c) => c.tool === tool, mark);
      const timeline = (await t.api.getTurnTimeline({ callId: started.callId }))!;
      const call = timeline.spans.find((s) => s.kind === 'tool')!;
      const bar = timeline.spans.find((s) => s.kind === kind)!;
      expect(bar).toMatchObject({ parentId: call.id, serverId: id, requestId: expect.any(String) });
      const lines = await protocolLines(t, bar, 2);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^← ${method} #${bar.requestId} \\(`));
      expect(lines[1]).toMatch(new RegExp(`^→ (result|error) of ${method} #${bar.requestId} \\(`));
    }
  });

  it('exports the turn as one trace with the conventions’ names and attributes, and the server sees its trace id', async () => {
    receiver = await startOtlpReceiver();
    const t = startHost();
    await setUp(t);
    const view = await t.api.setTelemetry(on(receiver.url));
    expect(view).toMatchObject({ enabled: true, exporting: true, headers: [{ name: 'x-api-key', hasValue: true }] });
    expect(JSON.stringify(view)).not.toContain('telemetry-secret-1234');
    expect(await t.api.testTelemetry(on(receiver.url))).toMatchObject({ ok: true });

    const { conversation, messages, metaSeen } = await turnWithCall(t);
    const timeline = (await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: messages.at(-1)!.id }))!;
    expect(timeline.traceId).toMatch(/^[0-9a-f]{32}$/);
    // SEP-414: the request carried the trace context of its own span.
    expect(String(metaSeen.traceparent)).toMatch(new RegExp(`^00-${timeline.traceId}-[0-9a-f]{16}-01$`));

    await waitFor(() => receiver.spans.some((s) => s.name === 'invoke_agent patchbay'), { timeoutMs: 15_000, what: 'the turn exported' });
    const spans = receiver.spans.filter((s) => s.traceId === timeline.traceId);
    expect(spans.map((s) => s.name).sort()).toEqual(
      ['chat claude-sonnet-5-5', 'chat claude-sonnet-5-5', 'invoke_agent patchbay', 'tools/call meta', 'Waiting for your answer'].sort(),
    );
    const call = spans.find((s) => s.name === 'tools/call meta')!;
    expect(String(metaSeen.traceparent).slice(36, 52)).toBe(call.spanId);
    expect(call.kind).toBe(3); // CLIENT
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'meta',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
      'mcp.protocol.version': expect.any(String),
      'jsonrpc.request.id': expect.any(String),
    });
    expect(call.attributes['error.type']).toBeUndefined();
    // Arguments and results only when the user opts in.
    expect(call.attributes['mcp.tool.result']).toBeUndefined();
    const model = spans.find((s) => s.name.startsWith('chat '))!;
    expect(model.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'claude-sonnet-5-5',
      'gen_ai.usage.input_tokens': expect.any(Number),
    });
    const root = spans.find((s) => s.name === 'invoke_agent patchbay')!;
    expect(spans.filter((s) => s !== root).every((s) => s.parentSpanId === root.spanId)).toBe(true);
    // The header went to the endpoint, never back to the renderer.
    expect(receiver.headers.some((h) => h['x-api-key'] === 'telemetry-secret-1234')).toBe(true);
    expect(JSON.stringify(t.events)).not.toContain('telemetry-secret-1234');
  });

  it('refuses an endpoint that is not http(s) at entry, and Test connection names the failure', async () => {
    const t = startHost();
    await expect(t.api.setTelemetry(on('ftp://127.0.0.1/'))).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(t.api.setTelemetry(on('javascript:alert(1)'))).rejects.toMatchObject({ code: 'invalid_input' });
    receiver = await startOtlpReceiver();
    const url = receiver.url;
    await receiver.stop();
    const result = await t.api.testTelemetry(on(url));
    expect(result.ok).toBe(false);
    expect(result.message).toContain('connection refused');
  });

  it('a receiver stopped mid-turn changes nothing the user sees: the turn ends, the spans are counted as dropped', async () => {
    receiver = await startOtlpReceiver();
    const t = startHost();
    await setUp(t);
    await t.api.setTelemetry(on(receiver.url, { protocol: 'http/protobuf' }));
    // Stopped while the turn waits for the user's consent: the turn's first spans already ended.
    const { conversation, messages } = await turnWithCall(t, () => receiver.stop());
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    const timeline = await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: messages.at(-1)!.id });
    expect(timeline?.spans.map((s) => s.kind)).toEqual(['turn', 'model', 'consent', 'tool', 'model']);
    await waitFor(async () => (await t.api.getTelemetry()).dropped >= 5, { timeoutMs: 20_000, what: 'the spans counted as dropped' });
    expect((await t.api.getTelemetry()).lastError).toBeTruthy();
  });

  it('exports OTLP/protobuf too, with propagation switched off for servers that reject unknown _meta', async () => {
    receiver = await startOtlpReceiver();
    const t = startHost();
    await setUp(t);
    await t.api.setTelemetry(on(receiver.url, { protocol: 'http/protobuf', propagate: false }));
    const { conversation, messages, metaSeen } = await turnWithCall(t);
    expect(metaSeen.traceparent).toBeUndefined();
    const timeline = (await t.api.getTurnTimeline({ conversationId: conversation.id, messageId: messages.at(-1)!.id }))!;
    await waitFor(() => receiver.protobufBodies.some((b) => b.includes(Buffer.from(timeline.traceId!, 'hex'))), {
      timeoutMs: 15_000,
      what: 'a protobuf export with the turn’s trace id',
    });
    const body = Buffer.concat(receiver.protobufBodies);
    expect(body.includes(Buffer.from('tools/call meta'))).toBe(true);
    expect(body.includes(Buffer.from('gen_ai.tool.name'))).toBe(true);
  });

  it('a Tools tab call is its own trace; a huge _meta echoed back costs one capped attribute, only with results opted in', async () => {
    receiver = await startOtlpReceiver();
    const t = startHost();
    const serverId = await setUp(t);
    await t.api.setTelemetry(on(receiver.url, { exportContent: true }));
    const outcome = await t.api.runTool({ serverId, tool: 'huge-meta', args: {} });
    expect(outcome.status).toBe('ok');
    // The Tools tab's Timeline of the call, from its record.
    const timeline = await t.api.getTurnTimeline({ callId: outcome.callId });
    expect(timeline?.spans.map((s) => [s.kind, s.label])).toEqual([
      ['turn', 'Run from the Tools tab'],
      ['tool', 'tracer › huge-meta'],
    ]);
    expect(timeline!.spans[1]!.bytesIn).toBeGreaterThan(1_000_000);
    await waitFor(() => receiver.spans.some((s) => s.name === 'tools/call huge-meta'), { timeoutMs: 15_000, what: 'the call exported' });
    const call = receiver.spans.find((s) => s.name === 'tools/call huge-meta')!;
    expect(call.parentSpanId ?? '').toBe('');
    expect(call.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
    const result = String(call.attributes['mcp.tool.result']);
    expect(result.length).toBeLessThanOrEqual(8_193);
    expect(result.endsWith('…')).toBe(true);
    expect(receiver.spans.some((s) => s.name === 'invoke_agent patchbay')).toBe(false);
  });

  it('every request of an operation carries trace context, not only tools/call: resources/read and prompts/get each as a client span', async () => {
    receiver = await startOtlpReceiver();
    const t = startHost();
    const serverId = await setUp(t);
    const TRACEPARENT = /00-([0-9a-f]{32})-([0-9a-f]{16})-01/;
    // Export off: nothing is added to any request.
    expect(JSON.stringify((await t.api.readResource({ serverId, uri: 'meta://seen' })).contents)).not.toMatch(TRACEPARENT);
    await t.api.setTelemetry(on(receiver.url));
    const read = TRACEPARENT.exec(JSON.stringify((await t.api.readResource({ serverId, uri: 'meta://seen' })).contents));
    const prompt = TRACEPARENT.exec(JSON.stringify((await t.api.getPrompt({ serverId, name: 'meta' })).messages));
    expect(read).not.toBeNull();
    expect(prompt).not.toBeNull();
    await waitFor(
      () => receiver.spans.some((s) => s.name === 'prompts/get meta') && receiver.spans.some((s) => s.name === 'resources/read'),
      {
        timeoutMs: 15_000,
        what: 'the requests exported',
      },
    );
    const readSpan = receiver.spans.find((s) => s.name === 'resources/read')!;
    expect([readSpan.traceId, readSpan.spanId]).toEqual([read![1], read![2]]);
    expect(readSpan.kind).toBe(3); // CLIENT
    expect(readSpan.attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'meta://seen',
      'jsonrpc.request.id': expect.any(String),
      'network.transport': 'pipe',
    });
    const promptSpan = receiver.spans.find((s) => s.name === 'prompts/get meta')!;
    expect([promptSpan.traceId, promptSpan.spanId]).toEqual([prompt![1], prompt![2]]);
    expect(promptSpan.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'meta' });
    // The per-server setting for servers that reject unknown _meta holds for these requests too.
    await t.api.setTelemetry(on(receiver.url, { propagate: false }));
    expect(JSON.stringify((await t.api.getPrompt({ serverId, name: 'meta' })).messages)).not.toMatch(TRACEPARENT);
  });

  it('a remote server gets the trace context in _meta and as HTTP headers', async () => {
    receiver = await startOtlpReceiver();
    const remote = await startModernHttpServer();
    try {
      const t = startHost();
      const serverId = await t.addServer({ name: 'remote', transport: 'http', url: remote.url });
      await t.api.setTelemetry(on(receiver.url));
      expect((await t.api.runTool({ serverId, tool: 'echo', args: { text: 'hi' } })).status).toBe('ok');
      const call = (await modernStats(remote)).requests.find((r) => r.method === 'tools/call')!;
      expect(call.metaTraceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(call.traceparent).toBe(call.metaTraceparent);
      await waitFor(() => receiver.spans.some((s) => s.name === 'tools/call echo'), { timeoutMs: 15_000, what: 'the call exported' });
      expect(receiver.spans.find((s) => s.name === 'tools/call echo')!.attributes['network.transport']).toBe('tcp');
    } finally {
      await remote.stop();
    }
  });
});
