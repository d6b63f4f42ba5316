import type { Tool } from '@modelcontextprotocol/client';

/** How long to look for the new list after a `tools/list` answer arrived (the SDK handles it a moment later). */
const TRIES = 50;
const INTERVAL_MS = 20;

/**
 * Notices when a server's tool list changed (list_changed, a reconnect) so the renderer refetches
 * and standing decisions show as suspended at once. The fleet publishes a server only when its view
 * changes, and a tool's new description does not change the view; so the consent plugin pokes this
 * watch whenever a `tools/list` answer passes on the wire, and the watch waits until the connection's
 * catalog holds a new list (catalog lists are replaced, never mutated: identity tells).
 */
export class CatalogWatch {
  private readonly seen = new Map<string, Tool[]>();
  private readonly checking = new Map<string, { again: boolean }>();

  constructor(
    private readonly tools: (serverId: string) => Tool[] | undefined,
    private readonly onChange: (serverId: string) => void,
  ) {}

  /** A `tools/list` answer from this server arrived. */
  poke(serverId: string): void {
    const current = this.checking.get(serverId);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: false };
    this.checking.set(serverId, state);
    let tries = 0;
    const check = () => {
      const list = this.tools(serverId);
      const changed = list !== undefined && list !== this.seen.get(serverId);
      if (!changed && ++tries < TRIES) {
        setTimeout(check, INTERVAL_MS).unref?.();
        return;
      }
      this.checking.delete(serverId);
      if (changed) {
        this.seen.set(serverId, list);
        this.onChange(serverId);
      }
      if (state.again) this.poke(serverId);
    };
    setImmediate(check);
  }

  forget(serverId: string): void {
    this.seen.delete(serverId);
  }
}
