import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { LogEntry } from '../../../src-preload/contract';
import { initiatorOf } from '../servers/transport/wire-initiator';
import { boundedJson, formatSize } from './bounded-json';
import type { AppendInput } from './log-record';

/** Requests remembered for pairing; beyond this the oldest are forgotten (their responses show no latency). */
const MAX_PENDING = 10_000;
/** Characters of params/result shown in a protocol entry's one-line text. */
const PREVIEW_CHARS = 300;

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
  private readonly pending = new Map<string, { method: string; at: number; from?: string }>();

  /** A new process: ids start over, nothing pending can be answered any more. */
  reset(): void {
    this.pending.clear();
  }

  describe(direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, now: number, json?: string): AppendInput {
    return this.track(direction, message, bytes, now, json)();
  }

  /**
   * Pairs the message now (pairing depends on order) and returns how to make its entry, which may run
   * later: the preview serialization is the costly part and is left to the log's next batch. `json`:
   * the message as it crossed the wire, kept as the detail instead of serializing the message again.
   */
  track(direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, now: number, json?: string): () => AppendInput {
    const m = message as Message;
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
      // A request someone other than the user or the model asked for (a server's app) says so.
      const from = direction === 'out' ? initiatorOf(message) : undefined;
      if (hasId) this.remember(`${direction}:${String(m.id)}`, m.method, now, from);
      head = `${arrow} ${m.method}${hasId ? ` #${String(m.id)}` : ''}${from ? ` — from ${from}` : ''}`;
      body = m.params;
    } else {
      // A response travels the other way from its request.
      const request = hasId ? this.take(`${direction === 'in' ? 'out' : 'in'}:${String(m.id)}`) : undefined;
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
    return () => {
      const cut = body === undefined ? undefined : boundedJson(body, PREVIEW_CHARS, 0, bytes);
      const preview = cut ? ` ${cut.text}${cut.truncated ? '…' : ''}` : '';
      const latency = fields.latencyMs !== undefined ? ` in ${fields.latencyMs} ms` : '';
      const text = `${head} (${formatSize(bytes)}${latency})${preview}`;
      return json === undefined ? { level, text, fields, detail: message, detailBytes: bytes } : { level, text, fields, detailJson: json };
    };
  }

  private remember(key: string, method: string, at: number, from?: string): void {
    this.pending.delete(key);
    this.pending.set(key, { method, at, ...(from ? { from } : {}) });
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
  }

  private take(key: string): { method: string; at: number; from?: string } | undefined {
    const found = this.pending.get(key);
    this.pending.delete(key);
    return found;
  }
}
