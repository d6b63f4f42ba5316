import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useScriptedOpenAi } from '../../test-support/use-scripted-openai';
import { completeMessage, type LlmRequest, type LlmStreamEvent } from './llm-types';
import { collect, failure } from './test-support/llm-stream';
import { toChatMessages, tokenFieldFor } from './openai-mapping';
import { OpenAiCompatibleProvider } from './openai-provider';

const server = useScriptedOpenAi();

const provider = (options: { baseUrl?: string; key?: string | null; name?: string } = {}) =>
  new OpenAiCompatibleProvider({
    name: () => options.name ?? 'Ollama',
    baseUrl: () => options.baseUrl ?? server.url,
    apiKey: async () => options.key ?? undefined,
  });

const request: LlmRequest = {
  model: 'llama3.1:8b',
  maxTokens: 100,
  system: 'Be brief.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [
    { name: 'srv__get-sum', description: 'adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
    { name: 'srv__echo', inputSchema: { properties: { message: { type: 'string' } } } },
  ],
};

const final = (events: LlmStreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'message-stop') throw new Error(`the stream ended with ${last?.type}`);
  return last.response;
};

describe('OpenAiCompatibleProvider against a scripted Chat Completions endpoint over HTTP', () => {
  it('streams text, and sends the request a compatible server expects', async () => {
    await server.script([{ type: 'text', text: 'Hello there.', chunks: 3, usage: { prompt: 21, completion: 4 } }]);
    const events = await collect(provider().createMessage(request));
    expect(events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')).toBe('Hello there.');
    expect(events.filter((e) => e.type === 'text-delta').length).toBe(3);
    expect(final(events)).toMatchObject({
      model: 'llama3.1:8b',
      content: [{ type: 'text', text: 'Hello there.' }],
      stopReason: 'end_turn',
      usage: { inputTokens: 21, outputTokens: 4 },
    });
    const [sent] = await server.chatRequests();
    expect(sent.credential).toEqual({ scheme: null, key: null }); // no key: no Authorization header at all
    expect(sent.body).toMatchObject({ model: 'llama3.1:8b', stream: true, stream_options: { include_usage: true }, max_tokens: 100 });
    expect(sent.body?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(sent.body?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'srv__get-sum', description: 'adds', parameters: { type: 'object', properties: { a: { type: 'number' } } } },
      },
      { type: 'function', function: { name: 'srv__echo', parameters: { type: 'object', properties: { message: { type: 'string' } } } } },
    ]);
  });

  it('assembles parallel tool calls whose argument pieces interleave', async () => {
    await server.script([
      {
        type: 'tool_calls',
        text: 'Both at once.',
        interleave: true,
        argChunks: 4,
        calls: [
          { nameEndsWith: '__get-sum', arguments: { a: 1, b: 2 } },
          { nameEndsWith: '__echo', arguments: { message: 'hi "there"' } },
        ],
      },
    ]);
    const events = await collect(provider({ key: 'sk-local' }).createMessage(request));
    const deltas = events.filter((e) => e.type === 'input-delta');
    // The pieces really alternate between the two calls' blocks.
    expect(deltas.slice(0, 4).map((e) => (e.type === 'input-delta' ? e.index : -1))).toEqual([1, 2, 1, 2]);
    const response = final(events);
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toEqual([
      { type: 'text', text: 'Both at once.' },
      { type: 'tool_use', id: expect.stringMatching(/^call_/), name: 'srv__get-sum', input: { a: 1, b: 2 } },
      { type: 'tool_use', id: expect.stringMatching(/^call_/), name: 'srv__echo', input: { message: 'hi "there"' } },
    ]);
    expect((await server.chatRequests())[0].credential).toEqual({ scheme: 'bearer', key: 'sk-local' });
  });

  it('takes tool calls a server ends with "stop", makes ids it left out, and reads empty arguments as none', async () => {
    await server.script([{ type: 'tool_calls', finishReason: 'stop', calls: [{ nameEndsWith: '__echo', arguments: '', noId: true }] }]);
    const response = await completeMessage(provider(), request);
    expect(response.stopReason).toBe('tool_use');
    expect(response.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^call_.{6,}/), name: 'srv__echo', input: {} }]);
  });

  it('says so when a tool call carries arguments that are not JSON', async () => {
    await server.script([{ type: 'tool_calls', calls: [{ nameEndsWith: '__echo', arguments: '{"message": "cut' }] }]);
    const error = await failure(collect(provider().createMessage(request)));
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/unreadable arguments for the tool call srv__echo/);
  });

  it('maps a stored history with tool calls, results and images to the Chat Completions shape', () => {
    const messages = toChatMessages('sys', [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'srv__get-sum', input: { a: 1 } },
          { type: 'tool_use', id: 'toolu_2', name: 'srv__shot', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: '3' }], isError: false },
          { type: 'tool_result', toolUseId: 'toolu_2', content: [{ type: 'image', mediaType: 'image/jpeg', data: 'BBBB' }], isError: true },
          { type: 'text', text: 'And now?' },
        ],
      },
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'srv__get-sum', arguments: '{"a":1}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'srv__shot', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '3' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: [image image/jpeg: in the next message]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tool calls above:' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,BBBB' } },
          { type: 'text', text: 'And now?' },
        ],
      },
    ]);
    expect(tokenFieldFor('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(tokenFieldFor('http://127.0.0.1:11434/v1')).toBe('max_tokens');
  });

  it.each([
    [
      { type: 'error' as const, status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' },
      'auth',
      /Ollama rejected the API key/,
    ],
    [
      { type: 'error' as const, status: 404, message: 'model "llama9" not found, try pulling it first', errorType: 'api_error' },
      'bad-request',
      /Ollama has no model "llama3.1:8b": pick another in the Model menu/,
    ],
    [
      { type: 'error' as const, status: 404, message: 'The model `gpt-9` does not exist', code: 'model_not_found' },
      'bad-request',
      /has no model/,
    ],
    [
      {
        type: 'error' as const,
        status: 400,
        code: 'context_length_exceeded',
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      },
      'context-too-long',
      /too long for "llama3.1:8b" on Ollama/,
    ],
    [
      {
        type: 'error' as const,
        status: 400,
        message: 'registry.ollama.ai/library/gemma:2b does not support tools',
        errorType: 'api_error',
      },
      'tools-unsupported',
      /llama3.1:8b on Ollama cannot use tools .*Continue without tools/,
    ],
    [
      {
        type: 'error' as const,
        status: 400,
        message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      },
      'tools-unsupported',
      /cannot use tools/,
    ],
    [
      { type: 'error' as const, status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', retryAfter: 7 },
      'rate-limit',
      /Retry in 7 s/,
    ],
    [
      { type: 'error' as const, status: 429, message: 'You exceeded your current quota', code: 'insufficient_quota' },
      'rate-limit',
      /no quota left/,
    ],
    [{ type: 'error' as const, status: 500, raw: 'upstream crashed' }, 'server', /Ollama failed \(HTTP 500\)/],
    [{ type: 'error' as const, status: 503, message: 'Server busy' }, 'overloaded', /overloaded/],
  ])('maps what compatible servers answer to what the user can do (%#)', async (step, kind, message) => {
    await server.script([step]);
    const error = await failure(collect(provider().createMessage(request)));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    if (step.status === 429 && 'retryAfter' in step) expect(error.retryAfterSeconds).toBe(7);
    expect(await server.chatRequests()).toHaveLength(1); // maxRetries 0: retrying is the user's choice
  });

  it('maps an error chunk mid-stream, a dropped connection, and a stream that ends without finishing', async () => {
    await server.script([
      { type: 'stream-error', text: 'Half', message: 'CUDA out of memory' },
      { type: 'disconnect', text: 'Half' },
      { type: 'text', text: 'Slow', hang: true },
    ]);
    const midStream = await failure(collect(provider().createMessage(request)));
    expect(midStream).toMatchObject({ kind: 'server', message: expect.stringContaining('CUDA out of memory') });
    expect((await failure(collect(provider().createMessage(request)))).kind).toBe('network');
    const controller = new AbortController();
    const stopped = (async () => {
      for await (const event of provider().createMessage(request, { signal: controller.signal })) {
        if (event.type === 'text-delta') controller.abort();
      }
    })();
    const error = await failure(stopped);
    expect(error.kind).toBe('cancelled');
    expect(error.retryable).toBe(false);
  });

  it('says a local server is not running when nothing listens on its port, naming it and its URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const error = await failure(collect(provider({ baseUrl }).createMessage(request)));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(`Ollama at ${baseUrl} is not running (connection refused). Start it, then Retry.`);
    const models = await provider({ baseUrl }).listModels();
    expect(models).toMatchObject({ models: [], source: 'fallback', note: expect.stringContaining('is not running') });
  });

  it('asks again without stream_options when a server refuses it, and remembers', async () => {
    await server.script(
      [
        { type: 'text', text: 'First.' },
        { type: 'text', text: 'Second.' },
      ],
      { rejectStreamOptions: true },
    );
    const p = provider();
    expect(final(await collect(p.createMessage(request))).content).toEqual([{ type: 'text', text: 'First.' }]);
    expect(final(await collect(p.createMessage(request))).content).toEqual([{ type: 'text', text: 'Second.' }]);
    const sent = await server.chatRequests();
    expect(sent.map((r) => r.body?.stream_options !== undefined)).toEqual([true, false, false]);
  });

  it("lists the endpoint's models, with its key", async () => {
    await server.script([], { models: ['qwen2.5:7b', 'llama3.1:8b'], apiKey: 'sk-needed' });
    expect(await provider({ key: 'sk-needed' }).listModels()).toEqual({
      models: [
        { id: 'llama3.1:8b', displayName: 'llama3.1:8b' },
        { id: 'qwen2.5:7b', displayName: 'qwen2.5:7b' },
      ],
      source: 'api',
    });
    expect(await provider().listModels()).toMatchObject({ source: 'fallback', note: expect.stringMatching(/rejected the API key/) });
  });
});
