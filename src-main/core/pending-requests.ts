/**
 * Requests from servers waiting for the user (sampling and elicitation share this): each settles
 * exactly once — answered, withdrawn (the server cancelled, timed out or went away), or at quit.
 * Insertion order is the queue order the renderer shows them in.
 */
export interface PendingEntry<V> {
  view: V;
  /** Settles the SDK handler's promise: a result, or an error the server receives. */
  finish(result: { ok: unknown } | { error: Error }): void;
}

export class PendingRequests<V extends { id: string; serverId: string }> {
  private readonly entries = new Map<string, PendingEntry<V> & { cleanup(): void }>();

  /**
   * Adds a request; resolves with what `finish` is given. An aborted `signal` calls `onAbort`, which
   * should settle the request as withdrawn.
   */
  add<R>(view: V, signal: AbortSignal | undefined, onAbort: () => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const abort = () => onAbort();
      signal?.addEventListener('abort', abort, { once: true });
      this.entries.set(view.id, {
        view,
        finish: (result) => ('ok' in result ? resolve(result.ok as R) : reject(result.error)),
        cleanup: () => signal?.removeEventListener('abort', abort),
      });
    });
  }

  get(id: string): PendingEntry<V> | undefined {
    return this.entries.get(id);
  }

  update(id: string, view: V): void {
    const entry = this.entries.get(id);
    if (entry) entry.view = view;
  }

  /** Removes and settles; false when it was settled already (exactly once). */
  settle(id: string, result: { ok: unknown } | { error: Error }): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    entry.cleanup();
    entry.finish(result);
    return true;
  }

  views(): V[] {
    return [...this.entries.values()].map((e) => e.view);
  }

  idsOf(serverId: string): string[] {
    return [...this.entries.values()].filter((e) => e.view.serverId === serverId).map((e) => e.view.id);
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }
}
