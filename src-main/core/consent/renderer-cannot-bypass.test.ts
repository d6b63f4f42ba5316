/**
 * The renderer has no way to make a model-initiated call skip the broker: everything a renderer can
 * send goes through `dispatchCall(host.handlers, …)` (Electron IPC and the WebSocket bridge both do
 * exactly that), so these tests speak to the host the same way and try every door.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { HOST_METHOD_NAMES, HOST_METHODS, type ToolCallOutcome } from '@contract';
import { dispatchCall } from '../rpc/dispatch';
import { waitFor } from '../servers/wait';
import { startHost } from '../../test-support/tool-host';
import { answerTool } from '../../test-support/answers';

const text = (outcome: ToolCallOutcome) => {
  const block = outcome.blocks[0];
  return block?.type === 'text' ? block.text : '';
};

describe('the renderer cannot make a model-initiated call skip the broker', () => {
  it('the contract has no method that runs a tool as the model, and no input that carries an origin', () => {
    // Any new tool, consent or question method must be reviewed against this rule: the list is spelled out.
    // callToolFromApp (MCP Apps) runs as the app of an open view's server, always through the broker
    // (apps-host.test.ts): its input names the view, never an origin. The tool-offer methods (per-tool
    // switches, pins, tool sets) only narrow what the model is offered; none runs a tool.
    expect(HOST_METHOD_NAMES.filter((name) => /tool|consent|decision|trust|question/i.test(name) && !/roots/i.test(name)).sort()).toEqual(
      [
        'answerQuestion',
        'callToolFromApp',
        'cancelToolCall',
        'deleteToolSet',
        'getToolResultPart',
        'listStandingDecisions',
        'listToolAudit',
        'listTools',
        'revokeDecision',
        'runTool',
        'saveToolSet',
        'setConversationToolSet',
        'setServerTrust',
        'setToolOffered',
        'setToolPinned',
        'setToolPolicy',
        'updateConsentSettings',
      ].sort(),
    );
    const schemas = new Map<string, string>();
    for (const name of HOST_METHOD_NAMES) {
      try {
        schemas.set(name, JSON.stringify(z.toJSONSchema(HOST_METHODS[name].input, { unrepresentable: 'any', io: 'input' })));
      } catch {
        // A schema JSON Schema cannot express is checked by the dispatch test below.
      }
    }
    expect(schemas.get('runTool')).toMatch(/"serverId".*"additionalProperties":false/);
    for (const [name, schema] of schemas) expect(schema, name).not.toMatch(/"origin"/);
  });

  it('rejects every attempt to smuggle a model origin or reach the in-process router', async () => {
    const t = startHost();
    const id = await t.fixture('tool-lab.mjs');
    const attempts = [
      dispatchCall(t.host.handlers, 'runTool', { serverId: id, tool: 'echo', args: { message: 'x' }, origin: 'model' }),
      dispatchCall(t.host.handlers, 'callToolWithConsent', { serverId: id, tool: 'echo', args: {}, origin: 'model' }),
      dispatchCall(t.host.handlers, 'answerQuestion', { id: 'made-up', answer: { kind: 'tool', decision: 'allow_once' } }),
      dispatchCall(t.host.handlers, 'answerQuestion', { id: 'made-up', answer: { kind: 'tool', decision: 'allow_once', origin: 'model' } }),
      dispatchCall(t.host.handlers, 'callToolFromApp', { viewId: 'made-up', tool: 'echo', args: {}, origin: 'model' }),
      dispatchCall(t.host.handlers, 'callToolFromApp', { viewId: 'made-up', tool: 'echo', args: {} }),
    ];
    const results = await Promise.all(attempts);
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([
      'invalid_input',
      'unknown_method',
      'invalid_input',
      'invalid_input',
      'invalid_input',
      'invalid_input',
    ]);
    expect((await t.api.listToolAudit({})).entries).toEqual([]);
  });

  it('while a model call waits for consent, nothing the renderer sends lets it through except the answer', async () => {
    const t = startHost();
    const id = await t.fixture('tool-lab.mjs');
    const mark = t.events.length;
    const modelCall = t.host.tools.callToolWithConsent({
      serverId: id,
      tool: 'echo',
      args: { message: 'from the model' },
      origin: 'model',
    });
    const request = await t.asked('tool', undefined, mark);

    // The user's own run is just that: it runs as the user, and the model's call keeps waiting.
    expect(text(await t.api.runTool({ serverId: id, tool: 'count', args: {} }))).toBe('tools/call received: 1');
    await t.api.runTool({ serverId: id, tool: 'echo', args: { message: 'from the model' } });
    // Standing decisions made now apply to later calls, not to the question already asked.
    await t.api.setToolPolicy({ serverId: id, tool: 'echo', policy: 'allow' });
    // Its tools have no hints, so each may do damage by the spec's defaults: trusting them names them all.
    const names = (await t.api.listTools({ serverId: id })).map((tool) => tool.name);
    await t.api.setServerTrust({ serverId: id, trusted: true, confirmedTools: names });
    expect((await t.api.getSnapshot()).questions.filter((q) => q.kind === 'tool').map((p) => p.id)).toEqual([request.id]);
    expect(text(await t.api.runTool({ serverId: id, tool: 'count', args: {} }))).toBe('tools/call received: 3');

    await answerTool(t.api, { id: request.id, decision: 'deny' });
    expect(await modelCall).toMatchObject({ status: 'denied', decidedBy: 'user' });
    expect(text(await t.api.runTool({ serverId: id, tool: 'count', args: {} }))).toBe('tools/call received: 4');
    await waitFor(async () => (await t.api.listToolAudit({})).entries.length === 5, { what: 'five audit rows' });
    const audit = (await t.api.listToolAudit({})).entries;
    expect(audit.filter((e) => e.origin === 'model').map((e) => [e.tool, e.decision, e.outcome])).toEqual([['echo', 'denied', 'denied']]);
    expect(audit.filter((e) => e.origin === 'user').every((e) => e.decidedBy === 'user')).toBe(true);
  });
});
