/**
 * Trace context arriving from a server is never adopted (issue 40, bad input), through the real host:
 * the trace-meta fixture asks for sampling inside a tool call with a malformed `traceparent` in its
 * request's `_meta` (and with a well-formed foreign one beside a huge `_meta`); the question reaches
 * the user as any other, the call completes, and the exported sampling span stays in the call's own
 * trace, under the call — never the server's trace id.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { approveSampling, rejectSampling, sendSampling } from '../../test-support/answers';
import { FIXTURES_DIR } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { useScriptedLlm } from '../chat/test-support/use-scripted-llm';
import { waitFor } from '../servers/wait';
import { startOtlpReceiver } from './test-support/otlp-receiver';

const llm = useScriptedLlm();
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
afterEach(async () => {
  await receiver?.stop().catch(() => undefined);
});

/** A host exporting to a fresh receiver, with the scripted model and the trace-meta fixture; the server's id. */
async function setUp(t: TestHost) {
  receiver = await startOtlpReceiver();
  await t.api.setApiKey({ apiKey: 'sk-ant-telemetry' });
  await t.api.updateSettings({ anthropicBaseUrl: llm.url });
  await t.api.setTelemetry({
    enabled: true,
    endpoint: receiver.url,
    protocol: 'http/json',
    headers: [],
    propagate: true,
    exportContent: false,
  });
  return t.addServer({ name: 'tracer', command: process.execPath, args: [path.join(FIXTURES_DIR, 'trace-meta.mjs')] });
}

/** The exported spans of a call's trace, once its sampling span arrived: the call's and the sampling's. */
async function exportedCall(t: TestHost, callId: string) {
  const timeline = (await t.api.getTurnTimeline({ callId }))!;
  expect(timeline.spans.map((s) => s.kind)).toEqual(['turn', 'tool', 'sampling']);
  expect(timeline.traceId).toMatch(/^[0-9a-f]{32}$/);
  await waitFor(() => receiver.spans.some((s) => s.name === 'Sampling request' && s.traceId === timeline.traceId), {
    timeoutMs: 15_000,
    what: 'the sampling span exported',
  });
  const call = receiver.spans.find((s) => s.name === 'tools/call sample' && s.traceId === timeline.traceId)!;
  const sampling = receiver.spans.find((s) => s.name === 'Sampling request' && s.traceId === timeline.traceId)!;
  return { call, sampling };
}

describe('a traceparent from a server', () => {
  it('a malformed one in a sampling request is ignored: the question is asked as usual and the span stays in the call’s trace', async () => {
    const t = startHost();
    const serverId = await setUp(t);
    await llm.reset();
    await llm.script([{ type: 'text', text: 'Hi there.' }]);
    const bogus = 'zz-not-a-trace-0000-{"__proto__":1}';
    const run = t.api.runTool({ serverId, tool: 'sample', args: { traceparent: bogus } });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({
      serverName: 'tracer',
      toolCall: { tool: 'sample' },
      stage: 'request',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }],
    });
    await approveSampling(t.api, { id: asked.id, model: asked.model });
    await t.updated('sampling', (q) => q.id === asked.id && q.stage === 'review');
    await sendSampling(t.api, { id: asked.id, text: 'Reviewed hi.' });
    const outcome = await run;
    expect(outcome.status).toBe('ok');
    expect(JSON.stringify(outcome)).toContain('Reviewed hi.');

    const { call, sampling } = await exportedCall(t, outcome.callId);
    expect(sampling.parentSpanId).toBe(call.spanId);
    expect(JSON.stringify(receiver.spans)).not.toContain('zz-not-a-trace');
  });

  it('a well-formed foreign one beside a huge _meta is not joined either; a rejection reaches the server', async () => {
    const t = startHost();
    const serverId = await setUp(t);
    const foreign = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const run = t.api.runTool({ serverId, tool: 'sample', args: { traceparent: foreign, padding: 1_000_000 } });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({ serverName: 'tracer', toolCall: { tool: 'sample' }, stage: 'request' });
    await rejectSampling(t.api, { id: asked.id });
    const outcome = await run;
    expect(outcome.status).toBe('ok');
    expect(JSON.stringify(outcome)).toMatch(/-1|rejected/);

    const { call, sampling } = await exportedCall(t, outcome.callId);
    expect(sampling.traceId).not.toBe('ab'.repeat(16));
    expect(sampling.parentSpanId).toBe(call.spanId);
    expect(receiver.spans.some((s) => s.traceId === 'ab'.repeat(16) || s.parentSpanId === 'cd'.repeat(8))).toBe(false);
    // The huge _meta costs nothing in what is exported: no attribute carries it.
    expect(JSON.stringify(sampling.attributes).length).toBeLessThan(1_000);
  });
});
