/**
 * A request's cancellation without a Node AbortSignal per request (CPU per tool call, see request-abort.ts): the
 * part of AbortSignal the SDK reads behaves as the platform's does, and a real signal follows it.
 */
import { describe, expect, it, vi } from 'vitest';
import { RequestAbort } from './request-abort';

describe('RequestAbort', () => {
  it('runs each abort listener once, in order, with the reason readable; removed and late listeners are not run', () => {
    const abort = new RequestAbort();
    const { signal } = abort;
    const heard: string[] = [];
    const first = () => heard.push(`first ${String(signal.reason)}`);
    const removed = () => heard.push('removed');
    signal.addEventListener('abort', first, { once: true });
    signal.addEventListener('abort', first); // the same listener again: once, as on an EventTarget
    signal.addEventListener('abort', removed);
    signal.addEventListener('abort', () => heard.push(`second ${signal.aborted}`));
    signal.removeEventListener('abort', removed);
    expect(signal.aborted).toBe(false);
    expect(() => signal.throwIfAborted()).not.toThrow();

    abort.abort('stop');
    abort.abort('again');
    signal.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual(['first stop', 'second true']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
    expect(() => signal.throwIfAborted()).toThrow('stop');
  });

  it('gives an AbortError when aborted without a reason, and a failing listener takes no other listener’s turn', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const abort = new RequestAbort();
    const after = vi.fn();
    abort.signal.addEventListener('abort', () => {
      throw new Error('listener bug');
    });
    abort.signal.addEventListener('abort', after);
    abort.abort();
    expect(after).toHaveBeenCalledOnce();
    expect(abort.reason).toBeInstanceOf(DOMException);
    expect((abort.reason as DOMException).name).toBe('AbortError');
    expect(String(quiet.mock.calls[0]?.[1])).toContain('listener bug');
    quiet.mockRestore();
  });

  it('makes a real AbortSignal on demand that follows it, whether asked for before or after the abort', () => {
    const before = new RequestAbort();
    const real = before.realSignal();
    expect(real).toBeInstanceOf(AbortSignal);
    expect(before.realSignal()).toBe(real);
    expect(real.aborted).toBe(false);
    before.abort(new Error('cancelled by the user'));
    expect(real.aborted).toBe(true);
    expect((real.reason as Error).message).toBe('cancelled by the user');

    const after = new RequestAbort();
    after.abort('quit');
    expect(after.realSignal().aborted).toBe(true);
    expect(after.realSignal().reason).toBe('quit');
  });
});
