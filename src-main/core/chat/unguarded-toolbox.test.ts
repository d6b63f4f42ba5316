/**
 * The fleet's tools and the test-only unguarded toolbox over a real server: server-everything over
 * stdio, the scripted Messages API over HTTP, the whole loop in between (the host goes through consent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatBlock } from '@contract';
import { ServerConnection } from '../servers/connection/server-connection';
import { referenceServer, testScope } from '../../test-support/fixtures';
import { listFleetTools } from '../server-fleet/fleet-tools';
import type { ToolCallRequest } from '../tools/tool-call';
import { unguardedFleetToolboxForTests } from './test-support/unguarded-toolbox';
import { chatFixture } from './test-support/chat-fixture';
import { startScriptedLlm, type ScriptedLlm } from './test-support/scripted-llm';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

async function everythingFleet(onTestFinished: Parameters<typeof testScope>[0]) {
  const scope = testScope(onTestFinished);
  const connection = new ServerConnection({
    config: { id: 'srv-everything', name: 'Everything (demo)', ...referenceServer('everything', ['stdio']) },
    loginShellPath: async () => [],
    shutdown: { stdinGraceMs: 500, termGraceMs: 500 },
    processStore: { add: (record) => scope.track(record.pid), remove: () => {}, list: () => [] },
  });
  scope.defer(() => connection.stop());
  expect((await connection.start()).status).toBe('ready');
  return {
    refs: () => [{ id: 'srv-everything', name: 'Everything (demo)' }],
    connection: (id: string) => (id === 'srv-everything' ? connection : undefined),
  };
}

function request(extra: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return {
    serverId: 'srv-everything',
    tool: 'get-sum',
    args: { a: 2, b: 3 },
    origin: 'model',
    signal: new AbortController().signal,
    ...extra,
  };
}

describe('toolboxes over server-everything', () => {
  it('lists Ready servers’ tools, runs a call, and cancels one on Stop', async ({ onTestFinished }) => {
    const fleet = await everythingFleet(onTestFinished);
    expect(listFleetTools(fleet).map((e) => e.tool.name)).toContain('get-sum');
    expect(listFleetTools(fleet, ['another'])).toEqual([]);
    const toolbox = unguardedFleetToolboxForTests(fleet);

    const sum = request();
    expect(await toolbox.call(sum)).toMatchObject({
      status: 'ok',
      result: { content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] },
    });

    const controller = new AbortController();
    const long = toolbox.call(
      request({ tool: 'trigger-long-running-operation', args: { duration: 30, steps: 30 }, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 200);
    expect(await long).toMatchObject({ status: 'cancelled', result: { isError: true } });
    expect(await toolbox.call(request({ serverId: 'gone' }))).toMatchObject({ status: 'protocol_error' });
  });

  it('runs the whole loop: the model calls get-sum on the real server and gets its answer', async ({ onTestFinished }) => {
    const fleet = await everythingFleet(onTestFinished);
    const f = await chatFixture({ baseUrl: llm.url, toolbox: unguardedFleetToolboxForTests(fleet) });
    onTestFinished(() => f.close());
    await llm.reset();
    await llm.script([
      { type: 'tool_use', calls: [{ nameEndsWith: '__get-sum', input: { a: 20, b: 22 } }] },
      { type: 'text', text: 'It is 42.' },
    ]);
    const conversation = f.conversations.create();
    f.turns.send(conversation.id, 'What is 20 + 22?');
    await f.idle(conversation.id);
    const [, second] = await llm.messageRequests();
    const sent = second.body!.messages.at(-1)!.content as { type: string; content: { text: string }[]; is_error: boolean }[];
    expect(sent[0]).toMatchObject({
      type: 'tool_result',
      is_error: false,
      content: [{ text: expect.stringContaining('data to use') }, { text: 'The sum of 20 and 22 is 42.' }],
    });
    expect(f.all(conversation.id).at(-1)!.content).toEqual([{ type: 'text', text: 'It is 42.' } satisfies ChatBlock]);
  });
});
