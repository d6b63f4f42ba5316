import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '@contract';
import { HostEventBus } from '../events';
import { systemClock } from '../clock';
import { QuestionQueue } from '../questions/question-queue';
import { ConsentBroker } from './consent-broker';

const tool: Tool = {
  name: 'delete-file',
  description: 'Deletes a file',
  inputSchema: { type: 'object' },
  annotations: { destructiveHint: true, title: 'Delete' },
};

function broker(timeoutMs = 60_000) {
  const events = new HostEventBus();
  const seen: HostEvent[] = [];
  events.subscribe((e) => seen.push(e));
  const questions = new QuestionQueue({ events, clock: systemClock });
  const b = new ConsentBroker({ questions, clock: systemClock, timeoutMs: () => timeoutMs });
  const ask = (serverId = 's1', signal?: AbortSignal) =>
    b.ask({ serverId, serverName: 'files', tool, args: { path: '/tmp/x' }, reason: 'ask' }, signal);
  const pending = () => questions.list('tool');
  const answer = (id: string, decision: 'allow_once' | 'always_allow' | 'deny', editedArgs?: Record<string, unknown>) =>
    questions.answer(id, { kind: 'tool', decision, ...(editedArgs ? { editedArgs } : {}) });
  return { b, ask, seen, pending, answer };
}

describe('ConsentBroker', () => {
  it('queues plain-data requests in order and settles each exactly once', async () => {
    const { ask, seen, pending, answer } = broker();
    const first = ask();
    const second = ask();
    const [one, two] = pending();
    expect(one).toMatchObject({
      serverName: 'files',
      tool: 'delete-file',
      annotations: { destructiveHint: true, title: 'Delete' },
      args: { path: '/tmp/x' },
    });
    expect(JSON.parse(JSON.stringify(pending()))).toEqual(pending());
    answer(two.id, 'always_allow', { path: '/tmp/y' });
    expect(() => answer(two.id, 'deny')).toThrow('no longer pending');
    answer(one.id, 'deny');
    expect(await first).toMatchObject({ kind: 'deny', outcome: 'denied' });
    expect(await second).toMatchObject({ kind: 'allow', always: true, edited: true, args: { path: '/tmp/y' } });
    expect(seen.filter((e) => e.name === 'questionSettled' && e.payload.kind === 'tool').map((e) => e.payload)).toEqual([
      { id: two.id, kind: 'tool', serverId: 's1', outcome: 'allowed' },
      { id: one.id, kind: 'tool', serverId: 's1', outcome: 'denied', note: 'The user declined' },
    ]);
  });

  it('denies a request nobody answers once the timeout passes', async () => {
    const { ask, pending } = broker(50);
    const answer = await ask();
    expect(answer).toMatchObject({ kind: 'deny', outcome: 'timed_out', note: 'Nobody answered within 50 ms' });
    expect(pending()).toEqual([]);
  });

  it('withdraws a server’s requests, an aborted caller’s request, and denies everything at dispose', async () => {
    const { b, ask, pending } = broker();
    const s1 = ask('s1');
    const s2 = ask('s2');
    const controller = new AbortController();
    const aborted = ask('s3', controller.signal);
    b.withdrawServer('s1', 'server "files" is stopped');
    expect(await s1).toMatchObject({ kind: 'deny', outcome: 'withdrawn', note: 'server "files" is stopped' });
    controller.abort();
    expect(await aborted).toMatchObject({ outcome: 'withdrawn' });
    b.dispose();
    expect(await s2).toMatchObject({ outcome: 'shutdown' });
    expect(await ask('s4')).toMatchObject({ outcome: 'shutdown' });
    expect(pending()).toEqual([]);
  });
});
