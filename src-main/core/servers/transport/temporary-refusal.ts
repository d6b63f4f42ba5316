/**
 * An HTTP answer that means "not now" rather than "not here": 429 Too Many Requests, or a 5xx such
 * as 503 Service Unavailable. It is neither an old server (which the backwards-compatibility rule
 * infers from other 4xx answers) nor a broken one: wait (as long as `Retry-After` asks) and try again.
 */

/** What the server said when it refused. */
export interface TemporaryRefusal {
  status: number;
  statusText: string;
  /** How long the server asked us to wait (`Retry-After`), if it said. */
  retryAfterMs?: number;
}

/** The longest `Retry-After` honoured as given (a server asking for more is retried after this). */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** 429, and the 5xx that say "try later" (not 501 Not Implemented or 505 HTTP Version Not Supported). */
export function isTemporaryStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/** `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000);
  // An HTTP date names its month ("Sun, 01 Mar 2026 12:00:45 GMT"); Date.parse would take "1.5" for one too.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now));
}

function httpPart(refusal: TemporaryRefusal, where?: string, note?: string): string {
  const text = refusal.statusText ? ` ${refusal.statusText}` : '';
  return `(HTTP ${refusal.status}${text}${where ? ` from ${where}` : ''}${note ? `; ${note}` : ''})`;
}

/**
 * What the server did, to follow its name: "asked Patchbay to wait (HTTP 429 Too Many Requests)",
 * "is temporarily unavailable (HTTP 503 Service Unavailable from example.com; it asked for 30 s)".
 */
export function describeRefusal(refusal: TemporaryRefusal, where?: string, note?: string): string {
  const what = refusal.status === 429 ? 'asked Patchbay to wait' : 'is temporarily unavailable';
  return `${what} ${httpPart(refusal, where, note)}`;
}

/** The card's line while waiting: "asked Patchbay to wait (HTTP 429 Too Many Requests) — retrying in 30 s". */
export function refusalDetail(refusal: TemporaryRefusal, retryIn: string): string {
  const what = refusal.status === 429 ? 'asked Patchbay to wait' : 'temporarily unavailable';
  return `${what} ${httpPart(refusal)} — retrying in ${retryIn}`;
}
