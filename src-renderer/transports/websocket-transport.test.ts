import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_CALL_BYTES, type CallResult, type ServerFrame } from '@contract';
import type { ConnectionState } from '../host-client';
import { createWebSocketTransport } from './websocket-transport';

/**
 * A stand-in for the browser's WebSocket: records what the transport sends and lets the test play
 * the host's side (answer frames, close codes). Only the surface the transport uses.
 */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readonly OPEN = 1;
  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  answer(frame: ServerFrame | string) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
  drop(code: number, reason = '') {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason });
  }
}

const latest = () => FakeSocket.all[FakeSocket.all.length - 1];

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function connected() {
  const states: ConnectionState[] = [];
  const transport = createWebSocketTransport({ credential: 'c', url: 'ws://127.0.0.1:1/ws', backoff: () => 0 });
  transport.onConnectionChange?.((state) => states.push(state));
  latest().open();
  return { transport, states };
}

/** Settles with the result, or 'pending' if the call has not settled once queued work ran. */
async function settled(promise: Promise<CallResult>): Promise<CallResult | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 20))]);
}

describe('WebSocket transport', () => {
  it('writes the call id first in the frame, so the host can answer an oversized call by reading only its head', () => {
    const { transport } = connected();
    void transport.call('getSnapshot', undefined);
    expect(latest().sent[0]).toMatch(/^\{"id":1,"type":"call",/);
  });

  it('fails an oversized call the host answered without an id (it could not read one), naming the limit', async () => {
    const { transport } = connected();
    const small = transport.call('getSnapshot', undefined);
    const big = transport.call('previewImport', { text: 'x'.repeat(MAX_CALL_BYTES + 1) });
    latest().answer({
      type: 'result',
      id: null,
      result: {
        ok: false,
        error: { code: 'payload_too_large', message: 'This request (1\u00a0MB) is larger than the 1\u00a0MB a call may carry.' },
      },
    });
    expect(await settled(big)).toMatchObject({ ok: false, error: { code: 'payload_too_large', message: /1\u00a0MB a call may carry/ } });
    expect(await settled(small)).toBe('pending');
    latest().answer({ type: 'result', id: 1, result: { ok: true, value: 'snapshot' } });
    expect(await small).toEqual({ ok: true, value: 'snapshot' });
  });

  it('fails every pending call when the socket closes, an oversized one saying it was too large, then reconnects', async () => {
    const { transport, states } = connected();
    const first = latest();
    const small = transport.call('getSnapshot', undefined);
    const huge = transport.call('previewImport', { text: 'x'.repeat(9 * MAX_CALL_BYTES) });
    first.drop(1009, 'Max payload size exceeded');
    expect(await settled(huge)).toMatchObject({
      ok: false,
      error: {
        code: 'payload_too_large',
        message: /larger than the 1\u00a0MB a call may carry\. The connection dropped it and is reconnecting/,
      },
    });
    expect(await settled(small)).toMatchObject({ ok: false, error: { code: 'internal', message: /Disconnected from the Patchbay host/ } });
    expect(states).toContain('disconnected');
    await vi.waitFor(() => expect(FakeSocket.all.length).toBe(2));
    latest().open();
    expect(states[states.length - 1]).toBe('connected');
    const after = transport.call('getSnapshot', undefined);
    latest().answer({ type: 'result', id: 3, result: { ok: true, value: 1 } });
    expect(await after).toEqual({ ok: true, value: 1 });
  });

  it('ignores a frame it cannot read and keeps serving calls', async () => {
    const { transport } = connected();
    const call = transport.call('getSnapshot', undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => latest().answer('not json')).not.toThrow();
    warn.mockRestore();
    latest().answer({ type: 'result', id: 1, result: { ok: true, value: 2 } });
    expect(await call).toEqual({ ok: true, value: 2 });
  });
});
