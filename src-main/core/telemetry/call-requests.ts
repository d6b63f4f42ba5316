import type { Bar } from './timeline-model';

/**
 * Each tool bar's `tools/call` request on its server's wire: bars started and not yet matched to
 * their request (per server, in order: the router emits `toolCallStarted` just before the request),
 * then by JSON-RPC id until the response. Keyed per server then by id, so a wire message makes no
 * key string.
 */
export class CallRequests {
  private readonly unsent = new Map<string, Bar[]>();
  private readonly sent = new Map<string, Map<string | number, Bar>>();

  started(serverId: string, bar: Bar): void {
    let queue = this.unsent.get(serverId);
    if (!queue) this.unsent.set(serverId, (queue = []));
    queue.push(bar);
  }

  /** The bar of the next `tools/call` to this server and tool (what its request's trace context names). */
  next(serverId: string, tool: unknown): Bar | undefined {
    return this.unsent.get(serverId)?.find((bar) => bar.view.tool === tool);
  }

  /** The request left with this id: `bar` (found by its trace context), else the next of its tool. */
  bind(serverId: string, id: string | number, tool: unknown, bar: Bar | undefined): Bar | undefined {
    const queue = this.unsent.get(serverId);
    const at = bar ? (queue?.indexOf(bar) ?? -1) : (queue?.findIndex((b) => b.view.tool === tool) ?? -1);
    if (at < 0) return undefined;
    const bound = queue!.splice(at, 1)[0]!;
    bound.jsonrpcId = id;
    let sent = this.sent.get(serverId);
    if (!sent) this.sent.set(serverId, (sent = new Map()));
    sent.set(id, bound);
    return bound;
  }

  /** The response to this id arrived: its bar, no longer waiting. */
  answered(serverId: string, id: string | number): Bar | undefined {
    const sent = this.sent.get(serverId);
    const bar = sent?.get(id);
    if (bar) sent!.delete(id);
    return bar;
  }

  /** The call finished (a call cancelled or failed before its response too): its bar is let go. */
  finished(serverId: string, bar: Bar): void {
    const queue = this.unsent.get(serverId);
    const at = queue ? queue.indexOf(bar) : -1;
    if (at >= 0) queue!.splice(at, 1);
    if (bar.jsonrpcId !== undefined) this.sent.get(serverId)?.delete(bar.jsonrpcId);
  }
}
