import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvents, LogEntry, LogStream } from '@contract';
import { LiveBatcher } from './live-batcher';
import { DeferredRecord, recordSize, streamKey, type LogRecord } from './log-record';
import { LogRing } from './log-ring';
import { ProtocolTracker } from './protocol-tracker';
import { PATTERNS_ONLY } from './redactor';

let seq = 0;
function record(text: string, stream: LogStream = 'output', serverId = 's1'): LogRecord {
  const entry: LogEntry = { seq: ++seq, serverId, stream, ts: Date.now(), level: 'info', text };
  return { entry, size: recordSize(entry, undefined) };
}

afterEach(() => vi.useRealTimers());

describe('LogRing', () => {
  it('keeps the newest entries within its count cap, in order, and finds them by seq', () => {
    const ring = new LogRing({ entries: 3, bytes: 1_000_000 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((t) => record(t));
    all.forEach((r) => ring.push(r));
    expect(ring.size).toBe(3);
    expect(ring.tail(10).map((r) => r.entry.text)).toEqual(['c', 'd', 'e']);
    expect([...ring.newestFirst()].map((r) => r.entry.text)).toEqual(['e', 'd', 'c']);
    expect(ring.oldestSeq).toBe(all[2].entry.seq);
    expect(ring.find(all[3].entry.seq)?.entry.text).toBe('d');
    expect(ring.find(all[0].entry.seq)).toBeUndefined();
  });

  it('stays under its byte cap whatever is pushed, keeping at least the newest entry', () => {
    const ring = new LogRing({ entries: 1000, bytes: 2000 });
    for (let i = 0; i < 10_000; i++) ring.push(record(`line ${i} `.padEnd(100, '.')));
    expect(ring.byteSize).toBeLessThanOrEqual(2000);
    expect(ring.tail(1)[0].entry.text).toMatch(/^line 9999 /);
    ring.push(record('x'.repeat(5000)));
    expect(ring.size).toBe(1);
  });

  it('grows on demand across wrap-arounds and byte evictions, keeping order, up to its count cap', () => {
    const ring = new LogRing({ entries: 100, bytes: 40 * recordSize(record('x').entry, undefined) });
    const all: LogRecord[] = [];
    for (let i = 0; i < 250; i++) {
      const r = record(i % 7 === 0 ? 'x'.repeat(30) : 'x');
      all.push(r);
      ring.push(r);
      const kept = ring.tail(1000);
      expect(kept.map((k) => k.entry.seq)).toEqual(all.slice(all.length - kept.length).map((k) => k.entry.seq));
      expect(ring.size).toBeLessThanOrEqual(100);
    }
    expect(ring.find(all[249].entry.seq)).toBe(all[249]);
    ring.clear();
    expect(ring.size).toBe(0);
    ring.push(all[0]);
    expect(ring.tail(5)).toEqual([all[0]]);
  });
});

describe('LiveBatcher', () => {
  it('sends a few batches per interval, never one event per entry, with only the newest of a flood', () => {
    vi.useFakeTimers();
    const batches: HostEvents['logAppended'][] = [];
    const batcher = new LiveBatcher({ flushMs: 150, maxPerStream: 100, emit: (b) => batches.push(b) });
    // Each item counts the reads of its entry: only what a batch sends is read (a deferred record is made by it).
    let reads = 0;
    const counted = (r: LogRecord) => ({
      get entry() {
        reads += 1;
        return r.entry;
      },
    });
    const add = (r: LogRecord) => batcher.add(streamKey(r.entry.serverId, r.entry.stream), r.entry.serverId, r.entry.stream, counted(r));
    const flood = Array.from({ length: 100_000 }, (_, i) => record(`flood ${i}`));
    flood.forEach(add);
    const quiet = record('hello', 'host');
    add(quiet);
    expect(batches).toHaveLength(0);
    expect(reads).toBe(0);
    vi.advanceTimersByTime(150);
    expect(batches).toHaveLength(1);
    expect(reads).toBe(101);
    const [batch] = batches;
    const output = batch.entries.filter((e) => e.stream === 'output');
    expect(output).toHaveLength(100);
    expect(output.map((e) => e.text)).toEqual(flood.slice(-100).map((r) => r.entry.text));
    expect(batch.entries).toContain(quiet.entry);
    expect(batch.skipped).toEqual([{ serverId: 's1', stream: 'output', count: 99_900 }]);
    vi.advanceTimersByTime(1000);
    expect(batches).toHaveLength(1);
  });
});

describe('ProtocolTracker', () => {
  it('pairs responses with requests by id and direction, with latency and method', () => {
    const tracker = new ProtocolTracker();
    const request = tracker.describe('out', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }, 80, 1000);
    expect(request).toMatchObject({
      level: 'info',
      fields: { kind: 'request', method: 'tools/call', rpcId: 1, direction: 'out', bytes: 80 },
    });
    expect(request.text).toBe('→ tools/call #1 (80\u00a0B) {"name":"echo"}');
    // The server's own request with the same id does not answer ours.
    tracker.describe('in', { jsonrpc: '2.0', id: 1, method: 'roots/list' }, 40, 1005);
    const response = tracker.describe('in', { jsonrpc: '2.0', id: 1, result: { content: [] } }, 50, 1042);
    expect(response).toMatchObject({ fields: { kind: 'response', method: 'tools/call', latencyMs: 42, direction: 'in' } });
    expect(response.text).toContain('← result of tools/call #1 (50\u00a0B in 42 ms)');
    const ours = tracker.describe('out', { jsonrpc: '2.0', id: 1, result: { roots: [] } }, 30, 1050);
    expect(ours.fields).toMatchObject({ method: 'roots/list', latencyMs: 45 });
    const error = tracker.describe('in', { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'nope' } }, 60, 1100);
    expect(error).toMatchObject({ level: 'error', fields: { kind: 'error', rpcId: 9 } });
    expect(error.fields?.latencyMs).toBeUndefined();
    // JSON-RPC ids 1 and "1" are different requests.
    tracker.describe('out', { jsonrpc: '2.0', id: 2, method: 'ping' }, 40, 1150);
    expect(tracker.describe('in', { jsonrpc: '2.0', id: '2', result: {} }, 20, 1160).fields?.method).toBeUndefined();
    expect(tracker.describe('in', { jsonrpc: '2.0', id: 2, result: {} }, 20, 1170).fields).toMatchObject({ method: 'ping', latencyMs: 20 });
    const note = tracker.describe(
      'in',
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      70,
      1200,
    );
    expect(note.fields).toMatchObject({ kind: 'notification', method: 'notifications/message' });
  });

  it('makes an entry later from the wire JSON of a small message, and from the message itself for a big one', () => {
    const tracker = new ProtocolTracker();
    for (const text of ['hi', 'x'.repeat(10_000)]) {
      const message = { jsonrpc: '2.0' as const, id: 7, result: { content: [{ type: 'text', text }] } };
      const json = JSON.stringify(message);
      const source = tracker.track('in', message, json.length + 1, 2000, json);
      // What the server sent is what the entry says, whatever happens to the object meanwhile.
      if (text === 'hi') message.result.content[0].text = 'changed';
      const entry = source.make();
      expect(entry.text).toMatch(/^← result #7 \(.+\) \{"content":\[\{"type":"text","text":"(hi|x+)/);
      expect(entry.text).not.toContain('changed');
      expect(entry.detailJson).toBe(json);
    }
  });

  it('holds only the wire JSON of a small message until its entry is made, not the message object', async () => {
    // A held message object is promoted with every ring entry and costs each tool call garbage collection.
    const collect = exposedGc();
    const tracker = new ProtocolTracker();
    let message: { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> } | undefined = {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    };
    const json = JSON.stringify(message);
    const held = new WeakRef(message);
    const source = tracker.track('out', message, json.length + 1, 3000, json);
    message = undefined;
    // A WeakRef's target is kept until the end of the job that read it: collect in a later one.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(held.deref()).toBeUndefined();
    expect(source.make().text).toMatch(/^→ tools\/call #8 /);
  });
  it('keeps a waiting protocol entry in two small objects: its record and its source (bytes per entry, counted)', () => {
    // Under load every protocol entry waits in its ring through several garbage collections, each
    // copying it: what one holds is paid per tool call. A closure in place of the source (a function
    // and its context) and a separate "where and when" object cost ≈ 100 bytes more per entry (measured: 244 against 345).
    const collect = exposedGc();
    const tracker = new ProtocolTracker();
    const json = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
    const message = JSON.parse(json) as { jsonrpc: '2.0'; id: number; result: Record<string, unknown> };
    const n = 20_000;
    const kept: DeferredRecord[] = [];
    collect();
    const before = process.memoryUsage().heapUsed;
    const t = Date.now();
    for (let i = 0; i < n; i++) {
      // The same message and JSON every time: only what each entry adds is counted.
      const source = tracker.track('in', message, json.length + 1, t + i, json);
      kept.push(new DeferredRecord({ seq: t * 1000 + i, ts: t + i, serverId: 's1', stream: 'protocol' }, source, PATTERNS_ONLY, 1024, 100));
    }
    collect();
    const perEntry = (process.memoryUsage().heapUsed - before) / n;
    expect(kept[n - 1].entry.text).toMatch(/^← result #1 /);
    expect(perEntry).toBeLessThan(280);
  });
});

/** V8's `gc()`, exposed at run time (vitest's workers are not started with --expose-gc). */
function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
