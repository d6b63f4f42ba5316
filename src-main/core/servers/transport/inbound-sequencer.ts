/**
 * Delivers inbound messages so that a notification is fully dispatched before the next message.
 *
 * Why: the SDK's `Protocol` dispatches notifications a microtask later but responses at once, and
 * forgets a request's progress handler when its response arrives. A server that writes its last
 * `notifications/progress` and then the result (the usual order, often in the same stdout chunk)
 * would have that progress dropped as "unknown token". After each notification we hold further
 * messages until the next macrotask (`setImmediate` runs after every pending microtask).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** Orders delivery as described in the module comment. */
export class InboundSequencer {
  private readonly queue: JSONRPCMessage[] = [];
  private holding = false;

  constructor(private readonly deliver: (message: JSONRPCMessage) => void) {}

  /** Messages waiting behind a notification (for tests and diagnostics). */
  get pending(): number {
    return this.queue.length;
  }

  push(message: JSONRPCMessage): void {
    if (this.holding) {
      this.queue.push(message);
      return;
    }
    this.dispatch(message);
  }

  private dispatch(message: JSONRPCMessage): void {
    this.deliver(message);
    if ('method' in message && !('id' in message)) {
      this.holding = true;
      setImmediate(() => this.release());
    }
  }

  private release(): void {
    this.holding = false;
    while (this.queue.length > 0 && !this.holding) this.dispatch(this.queue.shift()!);
  }
}
