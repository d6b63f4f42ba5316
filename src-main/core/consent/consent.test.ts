import { describe, expect, it } from 'vitest';
import { riskyHintsOf } from '@contract';
import { waitFor } from '../servers/wait';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { answerTool } from '../../test-support/answers';

/** A model-initiated call through the core's in-process API (what the chat loop uses). */
function modelCall(t: TestHost, serverId: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal) {
  return t.host.tools.callToolWithConsent({ serverId, tool, args, origin: 'model', ...(signal ? { signal } : {}) });
}

/** Starts a model call and waits for the consent request it raises. */
async function asking(t: TestHost, serverId: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const mark = t.events.length;
  const call = modelCall(t, serverId, tool, args, signal);
  const request = await t.asked('tool', undefined, mark);
  return { call, request };
}

describe('consent for model-initiated calls', () => {
  it('Deny → declined result; Allow once → result and the next call asks again; Always allow → no dialog; Revoke → asks again', async () => {
    const t = startHost();
    const id = await t.everything();

    const { call: denied, request: ask1 } = await asking(t, id, 'get-sum', { a: 1, b: 2 });
    expect(ask1).toMatchObject({
      serverName: 'everything',
      tool: 'get-sum',
      title: 'Get Sum Tool',
      args: { a: 1, b: 2 },
      reason: 'ask',
      annotations: { readOnlyHint: true },
    });
    expect(Date.parse(ask1.expiresAt) - Date.parse(ask1.requestedAt)).toBe(10 * 60_000);
    expect((await t.api.getSnapshot()).questions.filter((q) => q.kind === 'tool').map((p) => p.id)).toEqual([ask1.id]);
    await answerTool(t.api, { id: ask1.id, decision: 'deny' });
    expect(await denied).toMatchObject({
      status: 'denied',
      decidedBy: 'user',
      result: { isError: true, content: [{ type: 'text', text: 'The user declined to run tool "get-sum" on server "everything".' }] },
    });
    await expect(answerTool(t.api, { id: ask1.id, decision: 'allow_once' })).rejects.toThrow('no longer pending');

    const { call: once, request: ask2 } = await asking(t, id, 'get-sum', { a: 1, b: 2 });
    await answerTool(t.api, { id: ask2.id, decision: 'allow_once', editedArgs: { a: 10, b: 5 } });
    expect(await once).toMatchObject({
      status: 'ok',
      decidedBy: 'user',
      result: { content: [{ type: 'text', text: 'The sum of 10 and 5 is 15.' }] },
    });

    const { call: always, request: ask3 } = await asking(t, id, 'get-sum', { a: 2, b: 2 });
    await expect(answerTool(t.api, { id: ask3.id, decision: 'always_allow', editedArgs: { a: 'x' } })).rejects.toMatchObject({
      code: 'invalid_input',
      data: expect.arrayContaining([{ path: ['editedArgs', 'a'], message: 'Must be number' }]),
    });
    await answerTool(t.api, { id: ask3.id, decision: 'always_allow' });
    expect((await always).status).toBe('ok');
    const [decision] = await t.api.listStandingDecisions();
    expect(decision).toMatchObject({
      id: `tool:${id}:get-sum`,
      kind: 'tool',
      serverName: 'everything',
      tool: 'get-sum',
      decision: 'allow',
      state: 'active',
    });
    expect((await t.api.listTools({ serverId: id })).find((tool) => tool.name === 'get-sum')?.policy).toBe('allow');

    const asked = t.countAsked('tool');
    expect(await modelCall(t, id, 'get-sum', { a: 3, b: 4 })).toMatchObject({ status: 'ok', decidedBy: 'policy' });
    expect(t.countAsked('tool')).toBe(asked);

    await t.api.revokeDecision({ id: decision.id });
    expect(await t.api.listStandingDecisions()).toEqual([]);
    const { call: again, request: ask4 } = await asking(t, id, 'get-sum', { a: 5, b: 6 });
    expect(ask4.tool).toBe('get-sum');
    await answerTool(t.api, { id: ask4.id, decision: 'deny' });
    await again;

    const audit = await t.api.listToolAudit({ serverId: id });
    expect(audit.entries.map((e) => [e.decidedBy, e.decision, e.outcome, e.decisionNote])).toEqual([
      ['user', 'denied', 'denied', expect.stringContaining('declined')],
      ['policy', 'allowed', 'ok', 'Always allow (standing decision)'],
      ['user', 'allowed', 'ok', 'Always allow'],
      ['user', 'allowed', 'ok', 'Allow once (arguments edited)'],
      ['user', 'denied', 'denied', expect.stringContaining('declined')],
    ]);
    expect(audit.entries[3].args).toBe('{"a":10,"b":5}');
    expect(audit.entries.every((e) => e.origin === 'model')).toBe(true);
  });

  it('queues concurrent requests, one at a time, in order', async () => {
    const t = startHost();
    const id = await t.everything();
    const calls = [1, 2, 3].map((n) => modelCall(t, id, 'echo', { message: `m${n}` }));
    const pending = await waitFor(
      async () => {
        const list = (await t.api.getSnapshot()).questions.filter((q) => q.kind === 'tool');
        return list.length === 3 ? list : undefined;
      },
      { what: 'three pending requests' },
    );
    expect(pending.map((p) => p.args.message)).toEqual(['m1', 'm2', 'm3']);
    for (const request of pending)
      await answerTool(t.api, { id: request.id, decision: request.args.message === 'm2' ? 'deny' : 'allow_once' });
    expect((await Promise.all(calls)).map((c) => c.status)).toEqual(['ok', 'denied', 'ok']);
  });

  it('honours always deny, ask and server trust (pinned), and shows them in the settings list', async () => {
    const t = startHost();
    const id = await t.everything();
    await t.api.setToolPolicy({ serverId: id, tool: 'echo', policy: 'deny' });
    expect(await modelCall(t, id, 'echo', { message: 'x' })).toMatchObject({ status: 'denied', decidedBy: 'policy' });

    // Its tools that may do damage or say they reach outside systems must be confirmed by name; until then nothing is trusted.
    const hinted = (await t.api.listTools({ serverId: id }))
      .filter((tool) => riskyHintsOf(tool.annotations).length > 0)
      .map((tool) => tool.name);
    expect(hinted).toContain('trigger-sampling-request');
    await expect(t.api.setServerTrust({ serverId: id, trusted: true })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/trigger-sampling-request \([^)]*reaches outside systems\)/),
    });
    await expect(t.api.setServerTrust({ serverId: id, trusted: true, confirmedTools: hinted.slice(1) })).rejects.toThrow(hinted[0]);
    expect(await t.api.listStandingDecisions()).toHaveLength(1);
    const list = await t.api.setServerTrust({ serverId: id, trusted: true, confirmedTools: hinted });
    expect(list.map((d) => [d.kind, d.decision])).toEqual([
      ['server', 'trust'],
      ['tool', 'deny'],
    ]);
    expect(await modelCall(t, id, 'get-sum', { a: 1, b: 1 })).toMatchObject({ status: 'ok', decidedBy: 'policy' });
    expect(await modelCall(t, id, 'echo', { message: 'x' })).toMatchObject({ status: 'denied' }); // a tool's own deny wins

    await t.api.setToolPolicy({ serverId: id, tool: 'get-sum', policy: 'ask' });
    const pending = await asking(t, id, 'get-sum', { a: 1, b: 1 });
    await answerTool(t.api, { id: pending.request.id, decision: 'deny' });
    expect((await pending.call).status).toBe('denied');
    expect(t.count('standingDecisionsChanged')).toBeGreaterThanOrEqual(3);
  });

  it('suspends a standing decision when the server changes the tool (rug pull) and shows the diff', async () => {
    const t = startHost();
    const id = await t.fixture('rug-pull.mjs');
    await t.api.setToolPolicy({ serverId: id, tool: 'read-notes', policy: 'allow' });
    const mark = t.events.length;
    expect(await modelCall(t, id, 'read-notes', { topic: 'plans' })).toMatchObject({ status: 'ok', decidedBy: 'policy' });

    // The server changed the tool after that call and sent list_changed: renderers are told, the approval is suspended.
    await t.next('toolsChanged', (p) => p.serverId === id, mark);
    expect((await t.api.listTools({ serverId: id })).find((candidate) => candidate.name === 'read-notes')?.policy).toBe('suspended');
    await t.next('standingDecisionsChanged', (list) => list.some((d) => d.tool === 'read-notes' && d.state === 'suspended'), mark);
    expect((await t.api.listStandingDecisions())[0]).toMatchObject({ tool: 'read-notes', state: 'suspended' });

    const { call, request: ask } = await asking(t, id, 'read-notes', { topic: 'plans' });
    expect(ask.reason).toBe('changed');
    expect(ask.diff).toContainEqual({ kind: 'removed', text: '  "description": "Reads your notes.",' });
    expect(ask.diff).toContainEqual({ kind: 'added', text: expect.stringContaining('~/.ssh/id_rsa') });
    expect(ask.diff).toContainEqual({ kind: 'added', text: expect.stringContaining('"forward_to"') });
    await answerTool(t.api, { id: ask.id, decision: 'always_allow' });
    expect((await call).status).toBe('ok');
    expect((await t.api.listTools({ serverId: id })).find((candidate) => candidate.name === 'read-notes')?.policy).toBe('allow');
  });

  it('fails closed: a server that stops withdraws its requests, and quitting denies the rest', async () => {
    const t = startHost();
    const id = await t.everything();
    const other = await t.fixture('echo.mjs');
    const { call: withdrawn, request: ask } = await asking(t, id, 'echo', { message: 'x' });
    await t.api.stopServer({ id });
    expect(await t.settled('tool', (p) => p.id === ask.id, 0)).toMatchObject({ id: ask.id, kind: 'tool', outcome: 'withdrawn' });
    expect(await withdrawn).toMatchObject({ status: 'denied', decidedBy: 'host', error: { kind: 'withdrawn' } });

    const cancelled = new AbortController();
    const { call: abandoned, request: ask2 } = await asking(t, other, 'echo', { message: 'y' }, cancelled.signal);
    cancelled.abort();
    // The caller gave up (the chat's Stop): withdrawn, and recorded as cancelled by the user rather than denied.
    expect(await abandoned).toMatchObject({ status: 'cancelled', decidedBy: 'user', error: { kind: 'withdrawn' } });
    expect(t.count('questionSettled', (p) => p.id === ask2.id && p.outcome === 'withdrawn')).toBe(1);

    const { call: atQuit } = await asking(t, other, 'echo', { message: 'z' });
    await t.host.dispose();
    expect(await atQuit).toMatchObject({ status: 'denied', error: { kind: 'shutdown' } });
  });

  it('refuses calls the model cannot make: unknown tools, stopped servers, arguments that fail the schema', async () => {
    const t = startHost();
    const id = await t.everything();
    expect(await modelCall(t, id, 'nope', {})).toMatchObject({ status: 'protocol_error', error: { kind: 'unknown-tool' } });
    expect(await modelCall(t, id, 'get-sum', { a: 'x', b: 1 })).toMatchObject({
      status: 'protocol_error',
      result: { isError: true, content: [{ text: expect.stringContaining('a: Must be number') }] },
    });
    expect(await modelCall(t, 'no-such-server', 'echo', {})).toMatchObject({ status: 'protocol_error', error: { kind: 'not-ready' } });
    expect(t.countAsked('tool')).toBe(0);
    expect((await t.api.listToolAudit({})).entries.map((e) => [e.decidedBy, e.decision, e.outcome])).toEqual([
      ['host', 'denied', 'protocol_error'],
      ['host', 'denied', 'protocol_error'],
      ['host', 'denied', 'protocol_error'],
    ]);
  });
});
