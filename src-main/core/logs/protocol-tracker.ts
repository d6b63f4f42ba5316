import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { LogEntry } from '@contract';
import { initiatorOf } from '../servers/sdk-internals/wire-initiator';
import { formatBytes } from '@contract';
import { boundedJson } from './bounded-json';
import { ENTRY_OVERHEAD, type AppendInput, type EntrySource } from './log-record';

/** Requests remembered for pairing; beyond this the oldest are forgotten (their responses show no latency). */
const MAX_PENDING = 10_000;
/** Characters of params/result shown in a protocol entry's one-line text. */
const PREVIEW_CHARS = 300;
/** Wire JSON up to this length is all an entry holds until made, parsed again then (see `track`). */
const PARSE_AGAIN_UP_TO = 4096;

type Message = {
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
};

/**
 * Turns JSON-RPC messages on one server's wire into protocol log entries: what kind, which method,
 * and for a response the method and latency of the request it answers (paired by id and direction:
 * our requests are answered `in`, the server's requests `out`).
 */
export class ProtocolTracker {
  /** Requests awaiting their response, by direction and id (JSON-RPC ids 1 and "1" are different ids). */
  private readonly pending = { in: new Map<string | number, Pending>(), out: new Map<string | number, Pending>() };

  /** A new process: ids start over, nothing pending can be answered any more. */
  reset(): void {
    this.pending.in.clear();
    this.pending.out.clear();
  }

  describe(direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, now: number, json?: string): AppendInput {
    return this.track(direction, message, bytes, now, json).make();
  }

  /**
   * Pairs the message now (pairing depends on order) and returns what its entry is made from, which
   * happens only when the entry is read (see `DeferredRecord`): the text and the preview serialization are the
   * costly part. `json`: the message as it crossed the wire, kept as the detail instead of serializing
   * the message again — and, for a message up to 4 KB, all the entry holds until it is made, parsed
   * again then: holding the message object would keep the request's whole object graph alive in the
   * ring (under load most of the young objects that survive a garbage collection were these).
   */
  track(direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, now: number, json?: string): EntrySource {
    const m = message as Message;
    const id = m.id;
    const hasId = id !== undefined && id !== null;
    const method = typeof m.method === 'string' ? m.method : undefined;
    // A request someone other than the user or the model asked for (a server's app) says so.
    const from = method !== undefined && direction === 'out' ? initiatorOf(message) : undefined;
    let request: Pending | undefined;
    if (method !== undefined && hasId) {
      this.remember(this.pending[direction], id, { method, at: now, from });
    } else if (hasId) {
      // A response travels the other way from its request.
      request = this.take(this.pending[direction === 'in' ? 'out' : 'in'], id);
    }
    // A big message is held as it is: parsing it again would cost more than keeping it (and one over
    // 128 KB is made at once anyway); the many small ones of a busy wire are parsed again.
    const held = json === undefined || json.length > PARSE_AGAIN_UP_TO ? m : undefined;
    return new WireEntry(direction, held, request, from, bytes, now, json);
  }

  private remember(pending: Map<string | number, Pending>, id: string | number, request: Pending): void {
    pending.delete(id);
    pending.set(id, request);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string | number);
  }

  private take(pending: Map<string | number, Pending>, id: string | number): Pending | undefined {
    const found = pending.get(id);
    if (found) pending.delete(id);
    return found;
  }
}

/**
 * What a protocol entry is made from later: `held`, the message object (a big message, or one whose
 * wire JSON is not known), else the wire JSON alone, parsed again then. An object holding only these
 * (see `EntrySource`): the entry waits in its ring with it.
 */
class WireEntry implements EntrySource {
  constructor(
    private readonly direction: 'in' | 'out',
    private readonly held: Message | undefined,
    private readonly request: Pending | undefined,
    private readonly from: string | undefined,
    private readonly bytes: number,
    private readonly now: number,
    private readonly json: string | undefined,
  ) {}

  make(): AppendInput {
    const message = this.held ?? (JSON.parse(this.json!) as Message);
    return describeMessage(this.direction, message, this.request, this.from, this.bytes, this.now, this.json);
  }
}

/** A request waiting for its response: what the response's entry says about it. */
interface Pending {
  method: string;
  at: number;
  from: string | undefined;
}

/**
 * The entry of one message: `request` is the request a response answers, `from` who asked for a
 * request (see `initiatorOf`), `json` the message as it crossed the wire when known.
 */
function describeMessage(
  direction: 'in' | 'out',
  m: Message,
  request: Pending | undefined,
  from: string | undefined,
  bytes: number,
  now: number,
  json: string | undefined,
): AppendInput {
  const hasId = m.id !== undefined && m.id !== null;
  const arrow = direction === 'out' ? '→' : '←';
  const fields: NonNullable<AppendInput['fields']> = { direction, bytes };
  if (hasId) fields.rpcId = m.id as string | number;
  let level: LogEntry['level'] = 'info';
  let head: string;
  let body: unknown;
  if (typeof m.method === 'string') {
    fields.method = m.method;
    fields.kind = hasId ? 'request' : 'notification';
    head = `${arrow} ${m.method}${hasId ? ` #${String(m.id)}` : ''}${from ? ` — from ${from}` : ''}`;
    body = m.params;
  } else {
    if (request) {
      fields.method = request.method;
      fields.latencyMs = Math.max(0, now - request.at);
    }
    const failed = m.error !== undefined;
    fields.kind = failed ? 'error' : 'response';
    if (failed) level = 'error';
    head = `${arrow} ${failed ? 'error' : 'result'}${request ? ` of ${request.method}` : ''}${hasId ? ` #${String(m.id)}` : ''}${request?.from ? ` — for ${request.from}` : ''}`;
    body = failed ? m.error : m.result;
  }
  const cut = body === undefined ? undefined : boundedJson(body, PREVIEW_CHARS, 0, bytes);
  const preview = cut ? ` ${cut.text}${cut.truncated ? '…' : ''}` : '';
  const latency = fields.latencyMs !== undefined ? ` in ${fields.latencyMs} ms` : '';
  const text = `${head} (${formatBytes(bytes)}${latency})${preview}`;
  return json === undefined ? { level, text, fields, detail: m, detailBytes: bytes } : { level, text, fields, detailJson: json };
}

/**
 * The approximate memory of a protocol entry until it is made (see `DeferredRecord`): its text (head
 * and preview) and the message twice — the parsed message and its wire JSON, both held by its `WireEntry`.
 */
export function protocolEntrySize(bytes: number): number {
  return ENTRY_OVERHEAD + 2 * PREVIEW_CHARS + 2 * bytes;
}
