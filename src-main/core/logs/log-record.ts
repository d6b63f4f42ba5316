import type { LogEntry, LogLevel, LogStream } from '../../../src-preload/contract';
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
const ENTRY_OVERHEAD = 96;

/** The approximate size of a record (UTF-16 characters counted as bytes: this is a bound, not an account). */
export function recordSize(entry: LogEntry, detail: string | undefined): number {
  return ENTRY_OVERHEAD + entry.text.length + (detail?.length ?? 0) + (entry.method?.length ?? 0) + (entry.logger?.length ?? 0);
}

/** Map key of one server's stream. */
export function streamKey(serverId: string, stream: LogStream): string {
  return `${serverId}\u0000${stream}`;
}

/** Splits a `streamKey` back apart. */
export function parseStreamKey(key: string): { serverId: string; stream: LogStream } {
  const at = key.lastIndexOf('\u0000');
  return { serverId: key.slice(0, at), stream: key.slice(at + 1) as LogStream };
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
