/**
 * Walks a paginated list (`resources/list`, `resources/templates/list`, `prompts/list`) to its end,
 * one `nextCursor` at a time, and stops — saying why, never hanging or growing without bound — when
 * a server misbehaves: a cursor it already sent (a pagination loop), or more items than Patchbay keeps.
 *
 * The SDK's own no-cursor `list*()` walk is not used for these lists: it throws after 64 pages (a
 * server with 10,000 resources in pages of 100 needs more), and a repeated cursor with different
 * items loops until that cap. Cursors are opaque (spec: pagination): only "present or absent" and
 * "seen before" are looked at; an empty string is a cursor like any other.
 */

/** The most items Patchbay keeps of one list of one server. */
export const LIST_ITEM_CAP = 100_000;

/** One page as the server answered it. */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/** The walk's result: the items, and why the list stops short when it does. */
export interface ListWalk<T> {
  items: T[];
  /** Set when the walk stopped before the server said "no more": a sentence for the user. */
  incomplete?: string;
}

export interface ListWalkOptions {
  /** What is listed, for messages: `resources`, `resource templates`, `prompts`. */
  what: string;
  /** The server's user-facing name, for messages. */
  serverName: string;
  cap?: number;
  /** Called after each page with the number of items so far (progress for long lists). */
  onPage?: (count: number) => void;
}

/** Fetches every page through `fetchPage` (first with no cursor). See the module comment. */
export async function walkList<T>(
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
  options: ListWalkOptions,
): Promise<ListWalk<T>> {
  const cap = options.cap ?? LIST_ITEM_CAP;
  const seen = new Set<string>();
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    const room = cap - items.length;
    if (page.items.length > room) {
      for (let i = 0; i < room; i++) items.push(page.items[i]);
      return { items, incomplete: capNote(options, cap) };
    }
    for (const item of page.items) items.push(item);
    options.onPage?.(items.length);
    const next = page.nextCursor;
    if (next === undefined || next === null) return { items };
    if (items.length >= cap) return { items, incomplete: capNote(options, cap) };
    if (seen.has(next)) {
      return {
        items,
        incomplete:
          `Server "${options.serverName}" sent a page cursor it had already sent (a pagination loop); ` +
          `the ${options.what} list stops at the ${items.length.toLocaleString('en-US')} received before it.`,
      };
    }
    seen.add(next);
    cursor = next;
  }
}

function capNote(options: ListWalkOptions, cap: number): string {
  return `Server "${options.serverName}" offers more than ${cap.toLocaleString('en-US')} ${options.what}; Patchbay keeps the first ${cap.toLocaleString('en-US')}.`;
}
