/**
 * Keyset paging on a table's `seq` column, newest first, as every paged list of the store does it (the
 * tool audit, the content and interaction audits, a conversation's messages): SQL is asked for one row
 * more than the page (`… WHERE seq < ? ORDER BY seq DESC LIMIT ?` with `pageBounds`), and that extra
 * row only says whether an older page exists, without a COUNT.
 */

/** The `seq < ?` and `LIMIT ?` parameters of a page of `limit` rows older than `before` (newest when omitted). */
export function pageBounds(before: number | undefined, limit: number): [number, number] {
  return [before ?? Number.MAX_SAFE_INTEGER, limit + 1];
}

/** The page's rows (the extra one dropped) and whether an older row exists. */
export function splitPage<Row>(rows: Row[], limit: number): { rows: Row[]; hasMore: boolean } {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The page as the contract sends it: its entries, and `nextBefore` only when an older one exists. */
export function seqPage<Row, Entry extends { seq: number }>(
  rows: Row[],
  limit: number,
  toEntry: (row: Row) => Entry,
): { entries: Entry[]; nextBefore?: number } {
  const page = splitPage(rows, limit);
  const entries = page.rows.map(toEntry);
  return { entries, ...(page.hasMore ? { nextBefore: entries[entries.length - 1].seq } : {}) };
}
