import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { FIXTURES_DIR } from '../../../test-support/fixtures';
import { HostClient, type RequestHandler } from './host-client';
import { RequestAbort } from './request-abort';
import { initiatorOf, withInitiator } from './wire-initiator';
import { extendOutboundMeta } from './outbound-meta';

/**
 * What this folder relies on inside the MCP SDK's `Client` (protected or private members, not its
 * public API). When an SDK update removes or changes one of them, these tests fail naming the member
 * and what depends on it, instead of tool calls, tasks or log levels misbehaving somewhere else.
 */
const here = import.meta.dirname;
const srcMain = path.resolve(here, '..', '..', '..');

/** The protected/private member names of the SDK's client classes, from its type declarations. */
function sdkPrivateNames(): Set<string> {
  const dist = path.join(srcMain, '..', 'node_modules', '@modelcontextprotocol', 'client', 'dist');
  const names = new Set<string>();
  for (const file of fs.readdirSync(dist).filter((name) => name.endsWith('.d.mts'))) {
    for (const match of fs
      .readFileSync(path.join(dist, file), 'utf8')
      .matchAll(/^\s*(?:protected|private)\s+(?:readonly\s+)?(_[A-Za-z]\w*)/gm)) {
      names.add(match[1]);
    }
  }
  return names;
}

function gone(member: string, usedFor: string): string {
  return `SDK private member Client.${member} is gone: ${usedFor}. Adapt src-main/core/servers/sdk-internals/ to the new SDK.`;
}

function connectTo(fixture: string, wrap?: (method: string, handler: RequestHandler) => RequestHandler): Promise<HostClient> {
  const client = new HostClient(
    { name: 'sdk-internals-test', version: '0' },
    { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5_000 } } },
    wrap,
  );
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(FIXTURES_DIR, fixture)] });
  onTestFinished(() => client.close());
  return client.connect(transport).then(() => client);
}

/** The protected members, read as the subclass reads them. */
type Internals = {
  _negotiatedProtocolVersion?: string;
  _wireCodec(): { validateResult(method: string, raw: unknown): { ok: boolean; reason?: string; message?: string } };
  _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined;
};
const internals = (client: Client) => client as unknown as Internals;

describe('SDK internals Patchbay relies on (@modelcontextprotocol/client)', () => {
  it('Client._wireCodec(): the negotiated era codec whose validateResult says invalid / not-in-era', () => {
    expect(
      typeof (Client.prototype as unknown as Internals)._wireCodec,
      gone('_wireCodec', 'HostClient warms the legacy era’s result schemas through it'),
    ).toBe('function');
    const codec = internals(new HostClient({ name: 't', version: '0' }, {}))._wireCodec();
    expect(typeof codec?.validateResult, gone('_wireCodec().validateResult', 'HostClient warms result schemas with it')).toBe('function');
    expect(codec.validateResult('tools/list', undefined), 'validateResult of a missing result no longer reports "invalid"').toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(codec.validateResult('no/such-method', {}), 'validateResult of an unknown method no longer reports "not-in-era"').toMatchObject({
      ok: false,
      reason: 'not-in-era',
    });
  });

  it('Client._negotiatedProtocolVersion: unset before connecting, the era after (legacy and modern servers)', async () => {
    const before = new HostClient({ name: 't', version: '0' }, {});
    expect(internals(before)._negotiatedProtocolVersion).toBeUndefined();
    const legacy = await connectTo('echo.mjs');
    expect(
      typeof internals(legacy)._negotiatedProtocolVersion,
      gone('_negotiatedProtocolVersion', 'HostClient reads the era from it'),
    ).toBe('string');
    // Results are validated by the SDK's own road.
    const result = await legacy.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(JSON.stringify(result.content)).toContain('hi');
    const modern = await connectTo('modern.mjs');
    expect(internals(modern)._negotiatedProtocolVersion).toBe('2026-07-28');
    const modernResult = await modern.callTool({ name: 'echo', arguments: { message: 'hello' } });
    expect(JSON.stringify(modernResult.content)).toContain('echo: hello');
  });

  it('HostClient.request: the result validator of a spec method is made once per era, not probed on every request', async () => {
    const legacy = await connectTo('echo.mjs');
    const codec = internals(legacy)._wireCodec();
    const validate = vi.spyOn(codec, 'validateResult');
    for (const message of ['one', 'two', 'three']) {
      const result = await legacy.callTool({ name: 'echo', arguments: { message } });
      expect(JSON.stringify(result.content)).toContain(message);
    }
    const probes = validate.mock.calls.filter(([method, raw]) => method === 'tools/call' && raw === undefined);
    const results = validate.mock.calls.filter(([method, raw]) => method === 'tools/call' && raw !== undefined);
    // The SDK alone probes the era with `validateResult(method, undefined)` before every request (≈ 8 µs each).
    expect(probes.length, 'the era probe runs per request again: see HostClient.request').toBeLessThanOrEqual(1);
    expect(results, 'results are no longer validated by the era codec').toHaveLength(3);
    validate.mockRestore();
  });

  it('Client.request reads only aborted, reason and add/removeEventListener of its signal (what RequestAbort has)', async () => {
    const legacy = await connectTo('echo.mjs');
    const read = new Set<PropertyKey>();
    const watched = (abort: RequestAbort) =>
      new Proxy(abort, {
        get(target, key) {
          read.add(key);
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as unknown as AbortSignal;
    const done = await legacy.callTool({ name: 'echo', arguments: { message: 'hi' } }, { signal: watched(new RequestAbort()) });
    expect(JSON.stringify(done.content)).toContain('hi');
    const abort = new RequestAbort();
    const slow = legacy.callTool({ name: 'slow', arguments: { ms: 10_000 } }, { signal: watched(abort) });
    abort.abort(new Error('cancelled by the test'));
    await expect(slow).rejects.toThrow('cancelled by the test');
    const known = new Set<PropertyKey>(['aborted', 'reason', 'addEventListener', 'removeEventListener']);
    expect(
      [...read].filter((key) => !known.has(key)).map(String),
      'the SDK reads more of a request signal than RequestAbort has: adapt sdk-internals/request-abort.ts',
    ).toEqual([]);
    expect(read.has('addEventListener'), 'the SDK no longer listens to the request signal').toBe(true);
  });

  it('Client.request keeps a symbol-keyed tag on the params up to the transport (the Protocol log names who asked)', async () => {
    const legacy = await connectTo('echo.mjs');
    const transport = legacy.transport!;
    const sent: { initiator: string | undefined; json: string }[] = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      sent.push({ initiator: initiatorOf(message), json: JSON.stringify(message) });
      return send(message, options);
    };
    await legacy.callTool(withInitiator({ name: 'echo', arguments: { message: 'tagged' } }, 'the app of Weather'));
    const call = sent.find((entry) => entry.json.includes('tagged'));
    expect(call?.initiator, 'the SDK no longer hands our params object (symbols included) to the transport: adapt wire-initiator.ts').toBe(
      'the app of Weather',
    );
    expect(call?.json).not.toContain('Weather');
  });

  it('Client._wrapHandler: every server→client handler passes through it (task-augmented sampling and elicitation)', async () => {
    expect(
      typeof (Client.prototype as unknown as { _wrapHandler?: unknown })._wrapHandler,
      gone('_wrapHandler', 'tasks wrap sampling and elicitation handlers through it'),
    ).toBe('function');
    const wrapped: string[] = [];
    const client = new HostClient({ name: 't', version: '0' }, { capabilities: { sampling: {} } }, (method, handler) => {
      wrapped.push(method);
      return handler;
    });
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: '' },
      model: 'm',
    }));
    expect(wrapped, gone('_wrapHandler', 'setRequestHandler no longer calls it, so tasks cannot wrap handlers')).toContain(
      'sampling/createMessage',
    );
  });

  it('Client._outboundMetaEnvelope: the _meta of modern-era requests, where the chosen log level goes', async () => {
    expect(
      typeof (Client.prototype as unknown as { _outboundMetaEnvelope?: unknown })._outboundMetaEnvelope,
      gone('_outboundMetaEnvelope', 'the per-request log level of 2026-07-28 servers is added to it'),
    ).toBe('function');
    const modern = await connectTo('modern.mjs');
    expect(extendOutboundMeta(modern, () => ({ 'test/key': 'value' }))).toBe(true);
    expect(internals(modern)._outboundMetaEnvelope()).toMatchObject({ 'test/key': 'value' });
  });

  it('no app code outside sdk-internals/ (tests may look) touches a protected or private member of the SDK client', () => {
    const names = sdkPrivateNames();
    expect(names.has('_wireCodec'), 'could not read the SDK type declarations').toBe(true);
    const offenders: string[] = [];
    const files = fs
      .readdirSync(srcMain, { recursive: true, withFileTypes: true })
      .filter(
        (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.parentPath.startsWith(here),
      )
      .map((entry) => path.join(entry.parentPath, entry.name));
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\b_[A-Za-z]\w*/g)) {
        if (names.has(match[0])) offenders.push(`${path.relative(srcMain, file)} uses ${match[0]}`);
      }
    }
    expect(offenders, 'SDK internals belong in src-main/core/servers/sdk-internals/').toEqual([]);
  });
});
