/**
 * Walks a server's resource, template or prompt list again after it changed. At most one walk per
 * list runs at a time; a change announced during a walk starts one more walk after it, so the last
 * notification always wins and a flood of `list_changed` costs at most two walks. A walk that finds
 * its session gone (a restart, a stop) applies nothing.
 */
import { fetchContentList } from './server-catalog';
import type { ServerSession } from './server-session';
import type { ContentListKind, ServerCatalog } from './server-state';

export interface ContentRefreshOptions {
  serverName(): string;
  /** Whether results for this session still matter (it is the connection's current, ready one). */
  isCurrent(session: ServerSession): boolean;
  requestTimeoutMs(): number;
  /** Stores a fresh list (and why it is incomplete, if it is). */
  apply<K extends ContentListKind>(kind: K, items: ServerCatalog[K], note: string | undefined): void;
  /** The walk found what the catalog already holds: nothing is applied (no one is told of a change that is none). */
  unchanged?(kind: ContentListKind, items: readonly unknown[], note: string | undefined): boolean;
}

/** Whether two lists hold the same items (compared as JSON, item by item, stopping at the first difference). */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && JSON.stringify(a[i]) !== JSON.stringify(b[i])) return false;
  return true;
}

export class ContentRefresh {
  private readonly running = new Map<ContentListKind, { again: boolean; done: Promise<void> }>();

  constructor(private readonly options: ContentRefreshOptions) {}

  /** Walks `kind` again on `session`; resolves once the newest walk asked for so far has been applied. */
  request(session: ServerSession, kind: ContentListKind): Promise<void> {
    const current = this.running.get(kind);
    if (current) {
      current.again = true;
      return current.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          if (!this.options.isCurrent(session)) return;
          const { items, note } = await fetchContentList(
            session.client,
            kind,
            { timeout: this.options.requestTimeoutMs() },
            this.options.serverName(),
          );
          if (this.options.isCurrent(session) && !this.options.unchanged?.(kind, items, note)) this.options.apply(kind, items, note);
        } while (state.again);
      } finally {
        this.running.delete(kind);
      }
    })();
    this.running.set(kind, state);
    return state.done;
  }
}
