import { createHook } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../store/database';
import { startHost } from '../../test-support/tool-host';
import { tempDir } from '../../test-support/temp-dir';

describe('tools through the contract (user runs)', () => {
  it('lists server-everything tools with their hints, runs get-sum and get-tiny-image, and audits them as the user', async () => {
    const t = startHost();
    const id = await t.everything();
    const tools = await t.api.listTools({ serverId: id });
    const sum = tools.find((tool) => tool.name === 'get-sum')!;
    expect(sum).toMatchObject({
      serverName: 'everything',
      title: 'Get Sum Tool',
      description: 'Returns the sum of two numbers',
      annotations: { readOnlyHint: true, destructiveHint: false },
      policy: 'ask',
      inputSchema: { type: 'object', required: ['a', 'b'] },
    });
    expect(sum.definitionHash).toMatch(/^[0-9a-f]{64}$/);

    const outcome = await t.api.runTool({ serverId: id, tool: 'get-sum', args: { a: 2, b: 3 } });
    expect(outcome).toMatchObject({
      status: 'ok',
      origin: 'user',
      serverName: 'everything',
      tool: 'get-sum',
      blocks: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
    });

    const image = await t.api.runTool({ serverId: id, tool: 'get-tiny-image', args: {} });
    expect(image.blocks).toContainEqual(
      expect.objectContaining({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) }),
    );

    const audit = await t.api.listToolAudit({ serverId: id });
    expect(audit.entries.map((e) => [e.tool, e.origin, e.decidedBy, e.decision, e.outcome])).toEqual([
      ['get-tiny-image', 'user', 'user', 'allowed', 'ok'],
      ['get-sum', 'user', 'user', 'allowed', 'ok'],
    ]);
    expect(audit.entries[1]).toMatchObject({
      args: '{"a":2,"b":3}',
      argsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      definitionHash: sum.definitionHash,
    });
  });

  it('validates arguments with ajv before sending, with errors addressed to the field', async () => {
    const t = startHost();
    const id = await t.everything();
    await expect(t.api.runTool({ serverId: id, tool: 'get-sum', args: { a: 'two' } })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [
        { path: ['args', 'b'], message: 'Required' },
        { path: ['args', 'a'], message: 'Must be number' },
      ],
    });
    await expect(t.api.runTool({ serverId: id, tool: 'get-structured-content', args: { location: 'Paris' } })).rejects.toMatchObject({
      data: [{ path: ['args', 'location'], message: expect.stringContaining('"New York"') }],
    });
    // Nothing was sent, so nothing was audited.
    expect((await t.api.listToolAudit({})).entries).toEqual([]);
  });

  it('shows a tool error apart from protocol errors, renders every content kind, and checks structured content', async () => {
    const t = startHost();
    const id = await t.fixture('tool-lab.mjs');
    const failed = await t.api.runTool({ serverId: id, tool: 'fail', args: {} });
    expect(failed).toMatchObject({ status: 'tool_error', blocks: [{ type: 'text', text: expect.stringContaining('could not reach') }] });

    const media = await t.api.runTool({ serverId: id, tool: 'media', args: {} });
    expect(media.blocks.map((b) => b.type)).toEqual(['image', 'audio', 'resource_link', 'resource']);
    expect(media.blocks[2]).toMatchObject({ uri: 'file:///tmp/report.txt', name: 'report.txt' });
    expect(media.blocks[3]).toMatchObject({ uri: 'memo://1', text: 'An embedded memo' });

    const weather = await t.api.runTool({ serverId: id, tool: 'weather', args: {} });
    expect(weather.structured).toEqual({ json: '{\n  "conditions": "Sunny",\n  "temperature": 21.5\n}', validated: true });
    const broken = await t.api.runTool({ serverId: id, tool: 'weather', args: { broken: true } });
    expect(broken).toMatchObject({
      status: 'protocol_error',
      error: { kind: 'invalid-output', message: expect.stringMatching(/"weather" on server "tool-lab".*output schema/) },
    });

    await t.api.stopServer({ id });
    await expect(t.api.runTool({ serverId: id, tool: 'echo', args: { message: 'x' } })).rejects.toThrow(
      'Server "tool-lab" is not running (stopped)',
    );
  });

  it('forwards progress and cancels: the server gets notifications/cancelled and the call ends as cancelled', async () => {
    const t = startHost();
    const id = await t.everything();
    const callId = crypto.randomUUID();
    const run = t.api.runTool({ serverId: id, tool: 'trigger-long-running-operation', args: { duration: 20, steps: 20 }, callId });
    const started = await t.next('toolCallStarted', (p) => p.callId === callId, 0);
    expect(started).toMatchObject({ tool: 'trigger-long-running-operation', origin: 'user', serverName: 'everything' });
    const progress = await t.next('toolCallProgress', (p) => p.callId === callId && p.progress >= 1, 0);
    expect(progress).toMatchObject({ total: 20 });
    expect((await t.api.getSnapshot()).tools.running).toMatchObject([{ callId, progress: { total: 20 } }]);

    await t.api.cancelToolCall({ callId });
    const outcome = await run;
    expect(outcome).toMatchObject({ status: 'cancelled', error: { message: expect.stringContaining('was cancelled') } });
    expect(outcome.durationMs).toBeLessThan(15_000);
    expect((await t.api.getSnapshot()).tools.running).toEqual([]);
    await expect(t.api.cancelToolCall({ callId })).rejects.toThrow('not running');
    expect((await t.api.listToolAudit({})).entries[0]).toMatchObject({ callId, outcome: 'cancelled' });
  });

  it('makes no AbortSignal per tool call: Cancel stays wired through one RequestAbort (docs/benchmarks.md, tool call CPU)', async () => {
    const t = startHost();
    const id = await t.fixture('echo.mjs');
    await t.api.runTool({ serverId: id, tool: 'echo', args: { message: 'warm' } });
    let made = 0;
    const Platform = globalThis.AbortController;
    globalThis.AbortController = class extends Platform {
      constructor() {
        super();
        made++;
      }
    };
    try {
      for (const message of ['one', 'two', 'three']) {
        const outcome = await t.api.runTool({ serverId: id, tool: 'echo', args: { message } });
        expect(outcome).toMatchObject({ status: 'ok', blocks: [{ type: 'text', text: expect.stringContaining(message) }] });
      }
    } finally {
      globalThis.AbortController = Platform;
    }
    expect(made, 'a tool call made an AbortController: see src-main/core/servers/sdk-internals/request-abort.ts').toBe(0);
  });

  it("waits no turn in vain on a model call under a standing allow: at most 36 promises a call, 25 of them the SDK's", async () => {
    // Each promise is an allocation and a turn of the microtask queue on every call (docs/benchmarks.md,
    // tool call CPU): the guard's judgement and look after the call and the server's redactor once open
    // settle without one when they have nothing to wait for. 36 measured = the SDK's 25 (a bare
    // Client.callTool on the same server) + 11 of the host's own request path. Three of those are paid
    // for reading: ToolRouter.decide is one async method (a standing decision too: +2) and
    // callToolWithConsent keeps its in-flight bookkeeping in a plain try/finally (+1); 33 when both were
    // hand-tuned away, which bought 2–6 µs of host CPU a call in an in-process A/B (docs/benchmarks.md).
    const t = startHost();
    const id = await t.fixture('echo.mjs');
    await t.api.setToolPolicy({ serverId: id, tool: 'echo', policy: 'allow' });
    const call = () => t.host.tools.callToolWithConsent({ serverId: id, tool: 'echo', args: { message: 'hi' }, origin: 'model' });
    for (let i = 0; i < 5; i++) expect(await call()).toMatchObject({ status: 'ok' });
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) });
    const calls = 20;
    hook.enable();
    try {
      for (let i = 0; i < calls; i++) expect((await call()).status).toBe('ok');
    } finally {
      hook.disable();
    }
    expect(
      promises / calls,
      'promises made per model call: see ToolRouter.afterCall, guard judge, SecretValues.openNow',
    ).toBeLessThanOrEqual(36);
  });

  it('sends a 10 MB result as a capped preview and the rest on demand', async () => {
    const t = startHost();
    const id = await t.fixture('big-result.mjs');
    const outcome = await t.api.runTool({ serverId: id, tool: 'big', args: {} });
    const size = 10 * 1024 * 1024;
    expect(outcome.blocks[0]).toMatchObject({ type: 'text', truncated: { shown: 100_000, total: size } });
    expect(JSON.stringify(outcome).length).toBeLessThan(110_000);
    expect(outcome.resultBytes).toBe(size);

    const part = await t.api.getToolResultPart({ callId: outcome.callId, part: 0, offset: 100_000, limit: 50_000 });
    expect(part).toMatchObject({ offset: 100_000, total: size });
    expect(part.text).toHaveLength(50_000);
    expect(part.text.startsWith('0123456789abcdef'.slice(100_000 % 16))).toBe(true);
    await expect(t.api.getToolResultPart({ callId: 'nope', part: 0 })).rejects.toThrow('no longer kept');
  });

  it('commits the audit row before tools/call leaves the process (write-ahead)', async () => {
    const t = startHost();
    const id = await t.fixture('tool-lab.mjs', { env: [{ key: 'AUDIT_DB', value: path.join(t.dataDir, DATABASE_FILE) }] });
    const outcome = await t.api.runTool({ serverId: id, tool: 'check-audit', args: {} });
    expect(outcome.blocks).toEqual([{ type: 'text', text: 'audit row present: allowed, outcome open' }]);
  });

  it('has every audit row safe before its call leaves when 32 model calls go out together', async () => {
    const t = startHost();
    const id = await t.fixture('tool-lab.mjs', { env: [{ key: 'AUDIT_DB', value: path.join(t.dataDir, DATABASE_FILE) }] });
    await t.api.setToolPolicy({ serverId: id, tool: 'check-audit', policy: 'allow' });
    const nonces = Array.from({ length: 32 }, (_, i) => `nonce-${i}-${Date.now()}`);
    // Started in one turn of the event loop: each row is in the journal before its call is sent.
    const done = await Promise.all(
      nonces.map((nonce) => t.host.tools.callToolWithConsent({ serverId: id, tool: 'check-audit', args: { nonce }, origin: 'model' })),
    );
    expect(done.map((d) => [d.status, d.result.content])).toEqual(
      nonces.map(() => ['ok', [{ type: 'text', text: 'audit row present: allowed, outcome open' }]]),
    );
    const audit = await t.api.listToolAudit({ limit: 40 });
    expect(audit.entries.filter((e) => e.tool === 'check-audit' && e.outcome === 'ok')).toHaveLength(32);
  });

  it.skipIf(process.platform !== 'linux')(
    'does not send a call whose audit row cannot be written (a full disk), and says why',
    async () => {
      const dataDir = tempDir();
      // The audit journal is the kernel's always-full device: every write fails with ENOSPC, as on a full disk.
      fs.symlinkSync('/dev/full', path.join(dataDir, `${DATABASE_FILE}-audit-journal`));
      const t = startHost(dataDir);
      const id = await t.fixture('tool-lab.mjs');
      await t.api.setToolPolicy({ serverId: id, tool: 'echo', policy: 'allow' });
      const echo = await t.host.tools.callToolWithConsent({ serverId: id, tool: 'echo', args: { message: 'hi' }, origin: 'model' });
      expect(echo).toMatchObject({
        status: 'protocol_error',
        error: {
          kind: 'storage',
          message: expect.stringMatching(
            /^Patchbay could not record the call in its audit trail \(.*no space left on device.*\), so tool "echo" on server "tool-lab" was not run\.$/,
          ),
        },
        result: { isError: true },
      });
      // Nothing left for the server: no tools/call in its Protocol log.
      const sent = await t.api.queryLogs({ serverId: id, stream: 'protocol', method: 'tools/call', limit: 10 });
      expect(sent.entries).toEqual([]);
      const refused = (await t.api.listToolAudit({})).entries.find((e) => e.tool === 'echo');
      expect(refused).toMatchObject({ tool: 'echo', decision: 'denied', decidedBy: 'host', outcome: 'protocol_error' });
    },
  );
});
