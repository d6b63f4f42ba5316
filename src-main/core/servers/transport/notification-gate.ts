/**
 * A per-server budget for inbound notifications, so a server writing them as fast as it can costs
 * bounded memory and CPU, and its responses (and every other server's) are never starved.
 *
 * Notifications within the budget (a token bucket: `ratePerSecond`, up to `burst` at once) pass at
 * once. Beyond it they are not parsed, logged or queued:
 * - `notifications/message` (log lines) are dropped and counted;
 * - `notifications/progress` is coalesced: the latest per progress token is held back;
 * - any other notification (list_changed, resources/updated…) is held once per distinct message;
 * held ones go out when the budget allows, and always before the next response or request, so the
 * final progress still precedes its result. Holding is bounded (`maxHeld`); beyond it, dropped.
 * Responses and requests from the server never pass through the budget. What was dropped is reported
 * once per `reportIntervalMs` ("N messages dropped…"), and once more when the gate closes.
 *
 * The stdio transport meets the budget on raw bytes (`peekNotificationMethod`: a notification has a
 * method and no "id"; a line in the usual shape is read by one loop in JavaScript) and reads stdout at
 * full speed: a flooding server's answer waits behind its own notifications, so shedding must be
 * cheaper than reading, not slower.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** A message with a method and no id: a notification (what the budget applies to). */
export function isNotification(message: JSONRPCMessage): message is JSONRPCMessage & { method: string } {
  return 'method' in message && !('id' in message);
}

/** How much a server may send. */
export interface NotificationBudget {
  /** Notifications per second that pass untouched, on average. */
  ratePerSecond: number;
  /** How many may pass at once after a quiet spell. */
  burst: number;
}

/** The default: far above what a well-behaved server sends, far below what hurts the host. */
export const DEFAULT_NOTIFICATION_BUDGET: NotificationBudget = { ratePerSecond: 200, burst: 1000 };

/** What was dropped during one report interval. */
export interface DropReport {
  count: number;
  /** Per notification method, in order of first drop. */
  byMethod: Record<string, number>;
  budget: NotificationBudget;
}

export interface NotificationGateOptions<T> {
  budget?: NotificationBudget;
  /** Passes a held item on (it then takes the same path as one admitted at once). */
  release(item: T): void;
  /**
   * What a held notification is coalesced by (the progress token for progress, the message itself
   * for the rest), or undefined when it cannot be held (it is then dropped).
   */
  holdKey(method: string, item: T): string | undefined;
  onDropped(report: DropReport): void;
  /** What is kept of an item being held (default: the item itself). */
  hold?(item: T): T;
  /** Milliseconds, monotonic (default performance.now). */
  now?: () => number;
  reportIntervalMs?: number;
  /** Most notifications held back at once (default 64). */
  maxHeld?: number;
}

const LOG_MESSAGE = 'notifications/message';
const PROGRESS = 'notifications/progress';
/** A held notification is keyed by its whole text; longer ones are not worth holding. */
const MAX_HELD_TEXT = 4096;

/**
 * The usual hold key: the progress token for progress, the message's own text for the rest (the
 * same list_changed twice is one). `token` and `text` are read lazily: only an item being held pays.
 */
export function holdKeyOf(method: string, token: () => unknown, text: () => string): string | undefined {
  if (method === PROGRESS) {
    const value = token();
    return typeof value === 'string' || typeof value === 'number' ? `progress:${JSON.stringify(value)}` : undefined;
  }
  const whole = text();
  return whole.length <= MAX_HELD_TEXT ? `${method}:${whole}` : undefined;
}

/** The gate of one connection (single use, like its transport). */
export class NotificationGate<T> {
  private readonly budget: NotificationBudget;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;
  private readonly held = new Map<string, T>();
  private dropped: DropReport | undefined;
  private reportTimer: NodeJS.Timeout | undefined;
  private releaseTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: NotificationGateOptions<T>) {
    this.budget = options.budget ?? DEFAULT_NOTIFICATION_BUDGET;
    this.now = options.now ?? (() => performance.now());
    this.tokens = this.budget.burst;
    this.refilledAt = this.now();
  }

  /**
   * A notification arrived: true when it may go on now; false when it was held or dropped (the
   * gate owns it then). Anything held earlier goes first, as far as the budget allows.
   */
  admit(method: string, item: T): boolean {
    if (this.closed) return false;
    this.refill();
    if (this.held.size > 0) this.releaseHeld(false);
    if (this.tokens >= 1 && this.held.size === 0) {
      this.tokens -= 1;
      return true;
    }
    const key = method === LOG_MESSAGE ? undefined : this.options.holdKey(method, item);
    if (key === undefined || (!this.held.has(key) && this.held.size >= (this.options.maxHeld ?? 64))) {
      this.countDrop(method);
    } else {
      // A newer progress (or the same message again) replaces the one held, in place: that one is dropped.
      if (this.held.has(key)) this.countDrop(method);
      this.held.set(key, this.options.hold ? this.options.hold(item) : item);
      this.scheduleRelease();
    }
    return false;
  }

  /** A response or a request arrived: what was held goes out first, whatever the budget. */
  beforeOther(): void {
    if (this.held.size > 0) this.releaseHeld(true);
  }

  /** The connection ended: held notifications are forgotten, the last drops reported. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.held.clear();
    clearTimeout(this.releaseTimer);
    this.report();
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.budget.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.budget.ratePerSecond);
    this.refilledAt = now;
  }

  private releaseHeld(all: boolean): void {
    for (const [key, item] of this.held) {
      if (!all && this.tokens < 1) break;
      this.tokens = Math.max(0, this.tokens - 1);
      this.held.delete(key);
      this.options.release(item);
    }
  }

  /** Held notifications are released when tokens are back, even if the server falls silent. */
  private scheduleRelease(): void {
    if (this.releaseTimer) return;
    const wait = Math.max(1, Math.ceil(1000 / this.budget.ratePerSecond));
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      if (this.closed) return;
      this.refill();
      this.releaseHeld(false);
      if (this.held.size > 0) this.scheduleRelease();
    }, wait);
    this.releaseTimer.unref?.();
  }

  private countDrop(method: string): void {
    this.dropped ??= { count: 0, byMethod: {}, budget: this.budget };
    this.dropped.count += 1;
    this.dropped.byMethod[method] = (this.dropped.byMethod[method] ?? 0) + 1;
    if (!this.reportTimer && !this.closed) {
      this.reportTimer = setTimeout(() => this.report(), this.options.reportIntervalMs ?? 1000);
      this.reportTimer.unref?.();
    }
  }

  private report(): void {
    clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    const report = this.dropped;
    this.dropped = undefined;
    if (report) this.options.onDropped(report);
  }
}

/** "12,345 messages dropped from "x": notifications arrived faster than 500 a second (…)". */
export function describeDrops(serverName: string, report: DropReport): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const methods = Object.entries(report.byMethod)
    .map(([method, count]) => `${method} ${n(count)}`)
    .join(', ');
  const noun = report.count === 1 ? 'message' : 'messages';
  const kept = report.byMethod['notifications/progress'] ? '; the latest progress of each call was kept' : '';
  return (
    `${n(report.count)} ${noun} dropped from "${serverName}": notifications arrived faster than ` +
    `${n(report.budget.ratePerSecond)} a second (${methods})${kept}`
  );
}

const ID_KEY = Buffer.from('"id"');
const METHOD_KEY = Buffer.from('"method"');
const PROGRESS_TOKEN_KEY = Buffer.from('"progressToken"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** The index after JSON white space from `i`. */
function skipSpace(line: Buffer, i: number): number {
  while (i < line.length && (line[i] === 0x20 || line[i] === 0x09 || line[i] === 0x0d || line[i] === 0x0a)) i++;
  return i;
}

/** Where the value of the first `key` starts (after its colon and white space), or -1. */
function valueAt(line: Buffer, key: Buffer): number {
  const at = line.indexOf(key);
  if (at < 0) return -1;
  const colon = skipSpace(line, at + key.length);
  return line[colon] === COLON ? skipSpace(line, colon + 1) : -1;
}

/** A short string value without escapes at `i` (undefined otherwise: the parser will deal with it). */
function plainString(line: Buffer, i: number, max = 200): string | undefined {
  if (i < 0 || line[i] !== QUOTE) return undefined;
  const end = line.indexOf(QUOTE, i + 1);
  if (end < 0 || end - i - 1 > max || line.subarray(i + 1, end).includes(BACKSLASH)) return undefined;
  return line.toString('utf8', i + 1, end);
}

/**
 * The method of a raw stdout line that can only be a notification: it names a method and carries no
 * `"id"` anywhere. Read from the bytes, without decoding or parsing the line; a notification with
 * "id" somewhere inside (or an escaped method name) is not recognized here: it is parsed and gated
 * afterwards.
 */
export function peekNotificationMethod(line: Buffer): string | undefined {
  const usual = peekUsualNotification(line);
  if (usual !== NOT_USUAL) return usual;
  if (line.includes(ID_KEY)) return undefined;
  return plainString(line, valueAt(line, METHOD_KEY));
}

/** The start most servers write (JSON.stringify of `{jsonrpc, method, …}`): the fast path's shape. */
const USUAL_START = Buffer.from('{"jsonrpc":"2.0","method":"');
/** Method names a flood is made of, returned as these very strings (no new string per line). */
const KNOWN_METHODS = [LOG_MESSAGE, PROGRESS, 'notifications/resources/updated', 'notifications/tools/list_changed'].map((name) => ({
  name,
  bytes: Buffer.from(name),
}));
const NOT_USUAL = Symbol('not usual');

/**
 * The same answer as the general path for a line in the usual shape, by one loop over its bytes in
 * JavaScript: a flood is tens of thousands of short lines a second, and each native `indexOf` on a
 * line costs more than reading it. NOT_USUAL when the line starts otherwise.
 */
function peekUsualNotification(line: Buffer): string | undefined | typeof NOT_USUAL {
  const length = line.length;
  if (length <= USUAL_START.length) return NOT_USUAL;
  for (let i = 0; i < USUAL_START.length; i++) if (line[i] !== USUAL_START[i]) return NOT_USUAL;
  const from = USUAL_START.length;
  let end = from;
  while (end < length && line[end] !== QUOTE) {
    if (line[end] === BACKSLASH) return NOT_USUAL;
    end++;
  }
  if (end >= length || end - from > 200) return NOT_USUAL;
  // A request carries an "id" (anywhere): it must never be taken for a notification.
  for (let i = end; i + 3 < length; i++) {
    if (line[i] === QUOTE && line[i + 1] === 0x69 && line[i + 2] === 0x64 && line[i + 3] === QUOTE) return undefined;
  }
  for (const known of KNOWN_METHODS) {
    if (known.bytes.length !== end - from) continue;
    let same = true;
    for (let i = 0; i < known.bytes.length && same; i++) same = line[from + i] === known.bytes[i];
    if (same) return known.name;
  }
  return line.toString('utf8', from, end);
}

/** The progress token of a raw progress line as written (`7`, `"abc"`), for coalescing; undefined if unusual. */
export function peekProgressToken(line: Buffer): string | undefined {
  const i = valueAt(line, PROGRESS_TOKEN_KEY);
  if (i < 0) return undefined;
  if (line[i] === QUOTE) {
    const text = plainString(line, i);
    return text === undefined ? undefined : JSON.stringify(text);
  }
  let end = i;
  while (end < line.length && end - i <= 20 && ((line[end] >= 0x30 && line[end] <= 0x39) || line[end] === 0x2d)) end++;
  return end > i ? line.toString('latin1', i, end) : undefined;
}
