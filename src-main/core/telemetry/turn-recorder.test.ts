/**
 * What a tool call outside a chat costs the recorder with export off (issue 42): counts, not times.
 * The real `TurnRecorder` gets a lone call's events and wire messages as the host sends them.
 */
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '@contract';
import { KEPT_TURNS } from './timeline-model';
import { TurnRecorder } from './turn-recorder';

function lonelyRecorder() {
  const asked = { now: 0, facts: 0 };
  let time = 1_000;
  const recorder = new TurnRecorder({
    now: () => (asked.now++, (time += 1)),
    otel: () => undefined,
    facts: () => (asked.facts++, undefined),
    exportContent: () => false,
  });
  let id = 0;
  /** One model call outside a chat: started, its request out, its response in, finished. */
  const call = () => {
    const key = { callId: `call-${++id}`, serverId: 'srv', serverName: 'echo', tool: 'echo', origin: 'model' as const };
    recorder.onEvent({ name: 'toolCallStarted', payload: { ...key, startedAt: '' } } as HostEvent);
    recorder.onRequestSent('srv', {
      id,
      method: 'tools/call',
      params: { name: 'echo', _meta: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` } },
      bytes: 90,
    });
    recorder.onResponse('srv', id, 60, { content: [] });
    recorder.onEvent({ name: 'toolCallFinished', payload: { ...key, status: 'ok', durationMs: 1 } } as HostEvent);
    return key.callId;
  };
  return { recorder, asked, call };
}

/** How many Map operations `work` makes (every Map of the process, while it runs synchronously). */
function mapOperations(work: () => void): number {
  const methods = ['get', 'set', 'delete', 'has'] as const;
  const originals = methods.map((name) => Map.prototype[name]);
  let count = 0;
  methods.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    (Map.prototype as unknown as Record<string, unknown>)[name] = function (this: Map<unknown, unknown>, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
  });
  try {
    work();
  } finally {
    methods.forEach((name, i) => ((Map.prototype as unknown as Record<string, unknown>)[name] = originals[i]));
  }
  return count;
}

describe('a lone tool call with export off', () => {
  it('reads the clock twice (its start and its end) and never asks for server facts', () => {
    const { asked, call } = lonelyRecorder();
    for (let i = 0; i < 10; i++) call();
    expect(asked).toEqual({ now: 20, facts: 0 });
  });

  it('costs the same with a hundred turns kept as with none: nothing per call walks the kept turns', () => {
    const { recorder, call } = lonelyRecorder();
    const first = mapOperations(call);
    for (let i = 0; i < 3 * KEPT_TURNS; i++) call();
    // Once the ring is full each call also forgets the oldest turn: its one call id.
    const full = mapOperations(call);
    expect(full).toBeLessThanOrEqual(first);
    expect(mapOperations(call)).toBe(full);
    // The bookkeeping of one call stays a handful of Map operations (17 today).
    expect(full).toBeLessThanOrEqual(18);
    // …and the Timeline still shows the newest kept calls, and not one older.
    const last = 3 * KEPT_TURNS + 3;
    const newest = `call-${last}`;
    expect(
      recorder.timeline({ callId: newest })?.spans.map((s) => [s.kind, s.label, s.requestId, s.bytesOut, s.bytesIn, s.status]),
    ).toEqual([
      ['turn', 'Model call', undefined, undefined, undefined, undefined],
      ['tool', 'echo › echo', String(last), 90, 60, 'ok'],
    ]);
    expect(recorder.timeline({ callId: `call-${last - KEPT_TURNS}` })).toBeNull();
    expect(recorder.timeline({ callId: `call-${last - KEPT_TURNS + 1}` })).not.toBeNull();
  });
});
