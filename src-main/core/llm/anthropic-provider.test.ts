import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useScriptedLlm } from '../chat/test-support/use-scripted-llm';
import { AnthropicProvider, FALLBACK_MODELS } from './anthropic-provider';
import { completeMessage, type LlmRequest } from './llm-types';
import { collect, failure } from './test-support/llm-stream';

const llm = useScriptedLlm();

const provider = (baseUrl = () => llm.url, key: string | null = 'sk-test-key') =>
  new AnthropicProvider({ apiKey: async () => key ?? undefined, baseUrl });

const request: LlmRequest = {
  model: 'claude-sonnet-5-5',
  maxTokens: 100,
  system: 'Be brief.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [{ name: 'srv__get-sum', description: 'adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }],
};

describe('AnthropicProvider against a scripted Messages API over HTTP', () => {
  it('streams text and tool_use blocks, and sends the request the API expects', async () => {
    await llm.script([{ type: 'tool_use', text: 'Let me add.', chunks: 3, calls: [{ nameEndsWith: '__get-sum', input: { a: 1, b: 2 } }] }]);
    const events = await collect(provider().createMessage(request));
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toBe('Let me add.');
    const final = events.at(-1);
    expect(final?.type).toBe('message-stop');
    if (final?.type !== 'message-stop') return;
    expect(final.response.stopReason).toBe('tool_use');
    expect(final.response.content).toEqual([
      { type: 'text', text: 'Let me add.' },
      { type: 'tool_use', id: expect.any(String), name: 'srv__get-sum', input: { a: 1, b: 2 } },
    ]);
    const [sent] = await llm.messageRequests();
    expect(sent.credential).toEqual({ scheme: 'bearer', key: 'sk-test-key' });
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-5-5', max_tokens: 100, system: 'Be brief.', stream: true });
    expect(sent.body?.tools).toEqual([
      { name: 'srv__get-sum', description: 'adds', input_schema: { type: 'object', properties: { a: { type: 'number' } } } },
    ]);
  });

  it('completes a message for callers that do not show a stream (sampling)', async () => {
    await llm.script([{ type: 'text', text: 'Four.' }]);
    const response = await completeMessage(provider(), request);
    expect(response).toMatchObject({ content: [{ type: 'text', text: 'Four.' }], stopReason: 'end_turn', usage: { outputTokens: 7 } });
  });

  it.each([
    [{ type: 'error' as const, status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }, 'auth', /API key rejected/],
    [
      { type: 'error' as const, status: 429, errorType: 'rate_limit_error', message: 'slow down', retryAfter: 3 },
      'rate-limit',
      /Rate limited/,
    ],
    [{ type: 'error' as const, status: 529, errorType: 'overloaded_error', message: 'Overloaded' }, 'overloaded', /overloaded/],
    [
      {
        type: 'error' as const,
        status: 400,
        errorType: 'invalid_request_error',
        message: 'prompt is too long: 250000 tokens > 200000 maximum',
      },
      'context-too-long',
      /too long for the model's context window/,
    ],
    [
      { type: 'error' as const, status: 400, errorType: 'invalid_request_error', message: 'tools.0.name: bad' },
      'bad-request',
      /refused the request/,
    ],
  ])('maps HTTP failures to what the user can do (%#)', async (step, kind, message) => {
    await llm.script([step]);
    const error = await failure(collect(provider().createMessage(request)));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(error.retryable).toBe(true);
    if (kind === 'rate-limit') expect(error.retryAfterSeconds).toBe(3);
    expect(await llm.messageRequests()).toHaveLength(1); // maxRetries 0: retrying is the user's choice
  });

  it('maps an error event mid-stream, and a dropped connection', async () => {
    await llm.script([
      { type: 'stream-error', text: 'Half', errorType: 'overloaded_error', message: 'Overloaded' },
      { type: 'disconnect', text: 'Half' },
    ]);
    expect((await failure(collect(provider().createMessage(request)))).kind).toBe('overloaded');
    const dropped = await failure(collect(provider().createMessage(request)));
    expect(dropped.kind).toBe('network');
  });

  it("says it can't reach the host when nothing listens there", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(collect(provider(() => `http://127.0.0.1:${port}`).createMessage(request)));
    expect(error.kind).toBe('network');
    expect(error.message).toContain(`Can't reach 127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('refuses without a key, and a Stop ends the stream as cancelled', async () => {
    expect((await failure(collect(provider(undefined, null).createMessage(request)))).kind).toBe('no-api-key');
    await llm.script([{ type: 'text', text: 'Slow', chunks: 4, hang: true }]);
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of provider().createMessage(request, { signal: controller.signal })) {
        if (event.type === 'text-delta') {
          seen.push(event.text);
          if (seen.join('') === 'Slow') controller.abort();
        }
      }
    })();
    const error = await failure(run);
    expect(error.kind).toBe('cancelled');
    expect(error.retryable).toBe(false);
  });

  it('lists models from the Models API, and falls back to the built-in list', async () => {
    await llm.script([], { models: [{ id: 'claude-x', display_name: 'Claude X' }] });
    expect(await provider().listModels()).toEqual({ models: [{ id: 'claude-x', displayName: 'Claude X' }], source: 'api' });
    const noKey = await provider(undefined, null).listModels();
    expect(noKey).toMatchObject({ models: FALLBACK_MODELS, source: 'fallback', note: expect.stringMatching(/No Anthropic API key/) });
    const unreachable = await provider(() => 'http://127.0.0.1:9').listModels();
    expect(unreachable).toMatchObject({ source: 'fallback', note: expect.stringMatching(/Can't reach/) });
  });
});
