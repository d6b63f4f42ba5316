/**
 * One request's cancellation — a tool call's Cancel, quitting, the total-time cap — without making a
 * Node `AbortSignal` for every request.
 *
 * Why: Node's `AbortSignal` is an `EventTarget`. A tool call made two (the router's and the request
 * runner's, linked by a listener) and the SDK added and removed its abort listener on the second:
 * ≈ 11 µs of CPU per call on the bench box, against ≈ 0.5 µs for this object (docs/benchmarks.md,
 * "Tool call CPU", for the figures). The bare SDK passes no signal at all.
 *
 * It lives behind the SDK fence because it relies on SDK behaviour: the SDK's `request` reads only
 * this much of the signal in its options: `aborted`, `reason`, and `addEventListener` /
 * `removeEventListener` of `'abort'` (also when it hands the signal on to a retried leg, an
 * `input_required` round or a wait between rounds). sdk-internals.test.ts records what a real request
 * reads and fails by name when an SDK update reads more. `signal` is this object, typed as an
 * AbortSignal for the SDK's options, and must go nowhere else; `realSignal()` makes a real one, linked,
 * for whatever needs the platform type (a task's polling, timers, fetch).
 */

type AbortListener = (event: { type: 'abort' }) => void;

export class RequestAbort {
  private abortedValue = false;
  private reasonValue: unknown;
  private listeners: AbortListener[] | undefined;
  private real: AbortController | undefined;

  get aborted(): boolean {
    return this.abortedValue;
  }

  get reason(): unknown {
    return this.reasonValue;
  }

  /**
   * For the SDK's request options only (see the module comment): this object, which has the part of
   * AbortSignal the SDK reads.
   */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  /** Aborts once (later calls are ignored): listeners run in the order they were added, a real signal follows. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.abortedValue) return;
    this.abortedValue = true;
    this.reasonValue = reason;
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) {
      try {
        listener({ type: 'abort' });
      } catch (error) {
        // One listener's bug must not take the others' turn (nor the request's cancellation) away.
        console.error('[patchbay] an abort listener failed:', error);
      }
    }
    this.real?.abort(reason);
  }

  /** A real AbortSignal that aborts with this one (made on first use). */
  realSignal(): AbortSignal {
    if (!this.real) {
      this.real = new AbortController();
      if (this.aborted) this.real.abort(this.reason);
    }
    return this.real.signal;
  }

  /** As on an AbortSignal: an `abort` listener runs once; adding it again, or after the abort, does nothing. */
  addEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || typeof listener !== 'function' || this.aborted) return;
    const listeners = (this.listeners ??= []);
    if (!listeners.includes(listener)) listeners.push(listener);
  }

  removeEventListener(type: string, listener: AbortListener | null): void {
    const at = type === 'abort' && listener ? (this.listeners?.indexOf(listener) ?? -1) : -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
}
