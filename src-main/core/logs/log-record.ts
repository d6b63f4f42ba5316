import type { LogEntry, LogLevel, LogStream } from '@contract';
import { boundedJson } from './bounded-json';
import type { Redactor } from './redactor';

/** Largest kept detail (a full protocol message or message data), in characters. */
export const DETAIL_MAX_CHARS = 64 * 1024;
/** Largest one-line text of an entry. */
const TEXT_MAX_CHARS = 8 * 1024;

/** An entry as the core keeps it: what the list shows, plus the full (capped, redacted) message or data. */
export interface LogRecord {
  entry: LogEntry;
  /**
   * JSON of the protocol message (compact, as it crossed the wire, or pretty) or of the message's data
   * (pretty); `LogService.entry` hands it out indented either way.
   */
  detail?: string;
  truncated?: boolean;
  /** Approximate memory/storage cost in bytes, for the ring's and retention's byte limits. */
  size: number;
  /** Set by the writer once settled: true = in SQLite, false = not saved (dropped in a flood, write failed). */
  saved?: boolean;
  /** The detail was released from memory after it was saved: read it from SQLite (`size` still counts it). */
  detailOnDisk?: boolean;
}

/** Fixed per-entry overhead counted on top of its strings (object headers, numbers, indexes). */
export const ENTRY_OVERHEAD = 96;

/** The approximate size of a record (UTF-16 characters counted as bytes: this is a bound, not an account). */
export function recordSize(entry: LogEntry, detail: string | undefined): number {
  return ENTRY_OVERHEAD + entry.text.length + (detail?.length ?? 0) + (entry.method?.length ?? 0) + (entry.logger?.length ?? 0);
}

/** Map key of one server's stream. */
export function streamKey(serverId: string, stream: LogStream): string {
  return `${serverId}\u0000${stream}`;
}

/** One new entry, before it gets its seq, time and redaction. */
export interface AppendInput {
  level: LogLevel;
  /** Raw text: redacted here. */
  text: string;
  fields?: Partial<Pick<LogEntry, 'logger' | 'direction' | 'kind' | 'method' | 'rpcId' | 'bytes' | 'latencyMs' | 'event'>>;
  /** The full message or data (any JSON value): serialized with a size cap, then redacted. */
  detail?: unknown;
  /** The detail already serialized (a wire message as it crossed the wire): kept as it is, capped, then redacted. */
  detailJson?: string;
  /** Bytes of the detail's compact JSON when known (a wire message): lets small details be serialized natively. */
  detailBytes?: number;
}

/**
 * Makes the record of a new entry: text and detail redacted with the server's redactor, the detail
 * serialized with a size cap (a little more is serialized and redacted before the cut, so a secret
 * across the cut is redacted whole), the text cut at 8 KB.
 */
export function buildRecord(
  at: Pick<LogEntry, 'seq' | 'ts' | 'serverId' | 'stream'>,
  input: AppendInput,
  redactor: Redactor,
  detailMaxChars: number,
): LogRecord {
  let text = redactor.redact(input.text);
  if (text.length > TEXT_MAX_CHARS) text = `${text.slice(0, TEXT_MAX_CHARS)} …`;
  let detail: string | undefined;
  let truncated = false;
  const budget = detailMaxChars + redactor.margin;
  const json =
    input.detailJson !== undefined
      ? {
          text: input.detailJson.length > budget ? input.detailJson.slice(0, budget) : input.detailJson,
          truncated: input.detailJson.length > budget,
        }
      : input.detail !== undefined
        ? boundedJson(input.detail, budget, 2, input.detailBytes)
        : undefined;
  if (json) {
    detail = redactor.redact(json.text);
    truncated = json.truncated || detail.length > detailMaxChars;
    if (detail.length > detailMaxChars) detail = detail.slice(0, detailMaxChars);
  }
  // Property by property: object spreads of the varying `fields` cost microseconds per entry on this hot path.
  const entry: LogEntry = { seq: at.seq, ts: at.ts, serverId: at.serverId, stream: at.stream, level: input.level, text };
  const fields = input.fields;
  if (fields) for (const key of FIELD_KEYS) if (fields[key] !== undefined) (entry as unknown as Record<string, unknown>)[key] = fields[key];
  if (detail !== undefined) entry.hasDetail = true;
  return { entry, detail, truncated, size: recordSize(entry, detail) };
}

/** The optional fields an entry may carry (`AppendInput['fields']`). */
const FIELD_KEYS = ['logger', 'direction', 'kind', 'method', 'rpcId', 'bytes', 'latencyMs', 'event'] as const;

/** Where and when a deferred entry happened: all a record needs before it is made. */
export interface DeferredAt {
  seq: number;
  ts: number;
  serverId: string;
  stream: LogStream;
}

/**
 * What a deferred entry is made from when it is first read: what was captured when it happened (a
 * wire message's JSON, a stderr text) and how to turn that into an entry. An object holding just
 * that, not a closure: a record waits in its ring for as long as its stream is busy (under load it
 * outlives several garbage collections, each copying it), and a closure is two objects (the function
 * and its context) where this is one.
 */
export interface EntrySource {
  make(): AppendInput;
}

/**
 * A record made the first time something reads it: the writer saving it, the live batch sending it, a
 * page or search showing it. Made then from its source (see `EntrySource`) and the server's redactor
 * of the moment it happened, exactly as `buildRecord` would have made it at once; until then it holds
 * only those. Under a flood most entries are neither saved (the writer's per-interval cap) nor sent
 * (the live batch keeps the newest) nor read before the ring lets them go: those are never serialized
 * or redacted at all. Nothing unredacted leaves: every reader goes through `entry`/`detail`.
 *
 * `size` is fixed when the record is created (the ring sums it in and out, so it must not change): the
 * caller's estimate, which counts the raw message the source holds until then.
 */
export class DeferredRecord implements LogRecord, DeferredAt {
  saved?: boolean;
  detailOnDisk?: boolean;
  // Where and when, copied from the caller's `at` rather than holding it: one object fewer kept per waiting entry.
  readonly seq: number;
  readonly ts: number;
  readonly serverId: string;
  readonly stream: LogStream;
  private built: LogRecord | undefined;
  /** Until made: what from (dropped by the making, and with it the raw message it holds). */
  private source: EntrySource | undefined;

  constructor(
    at: DeferredAt,
    source: EntrySource,
    private readonly redactor: Redactor,
    private readonly detailMaxChars: number,
    readonly size: number,
  ) {
    this.seq = at.seq;
    this.ts = at.ts;
    this.serverId = at.serverId;
    this.stream = at.stream;
    this.source = source;
  }

  get entry(): LogEntry {
    return this.materialized().entry;
  }

  get detail(): string | undefined {
    return this.materialized().detail;
  }

  set detail(value: string | undefined) {
    this.materialized().detail = value;
  }

  get truncated(): boolean | undefined {
    return this.materialized().truncated;
  }

  /** The record as `buildRecord` makes it (made now if it was not yet). */
  materialized(): LogRecord {
    if (this.built) return this.built;
    const source = this.source!;
    this.source = undefined;
    try {
      this.built = buildRecord(this, source.make(), this.redactor, this.detailMaxChars);
    } catch (error) {
      console.error('[patchbay] could not make a log entry:', error);
      const text = `This entry could not be made: ${(error as Error).message}`;
      this.built = buildRecord(this, { level: 'error', text }, this.redactor, 0);
    }
    return this.built;
  }
}
