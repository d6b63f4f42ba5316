import type { WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '@contract';
import type { Host } from '../core/host';
import { checkCallSize, dispatchCall } from '../core/rpc/dispatch';

/**
 * Carries the contract over one WebSocket: each call frame is dispatched to the host and answered with
 * a result frame bearing the same id; every host event is pushed as an event frame. Garbage, wrong
 * types, unknown methods and oversized frames are answered with an error and the socket stays open;
 * an oversized call is answered with its own id (read from the frame's head), so its promise settles.
 * A frame beyond the server's hard cap (`maxPayload`) closes the socket with 1009; the page says so
 * and reconnects.
 */
export function bridgeWebSocket(socket: WebSocket, host: Host): void {
  const send = (frame: ServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const unsubscribe = host.events.subscribe((event) => send({ type: 'event', event }));
  socket.on('close', unsubscribe);
  socket.on('error', unsubscribe);

  socket.on('message', (data, isBinary) => {
    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    const tooLarge = checkCallSize(bytes);
    if (tooLarge) return send({ type: 'result', id: isBinary ? null : idFromHead(data), result: { ok: false, error: tooLarge } });
    const { frame, id } = isBinary ? { frame: undefined, id: null } : parseFrame(String(data));
    if (!frame) {
      return send({
        type: 'result',
        id,
        result: { ok: false, error: { code: 'bad_request', message: 'Expected a JSON call frame {type:"call", id, method, input}' } },
      });
    }
    void dispatchCall(host.handlers, frame.method, frame.input).then((result) => send({ type: 'result', id: frame.id, result }));
  });
}

/** How much of an oversized frame is looked at for its id. */
const HEAD_BYTES = 64;
/** The id at the very start of a call frame (`{"id":7,…` as our transport writes it, or `{"type":"call","id":7,…`). */
const HEAD_ID = /^\s*\{\s*(?:"type"\s*:\s*"call"\s*,\s*)?"id"\s*:\s*(\d{1,15})\s*[,}]/;

/**
 * The id of an oversized call frame, read from its first bytes only (the rest is never decoded), so
 * the caller's promise settles with the refusal. An id anywhere else (inside the input) is not trusted.
 */
function idFromHead(data: Buffer | ArrayBuffer | Buffer[]): number | null {
  const first = Array.isArray(data) ? data[0] : Buffer.isBuffer(data) ? data : Buffer.from(data);
  const match = HEAD_ID.exec(first.subarray(0, HEAD_BYTES).toString('latin1'));
  return match ? Number(match[1]) : null;
}

/** Parses a call frame; when it is not one, still recovers its id (if any) so the caller's promise settles. */
function parseFrame(text: string): { frame?: ClientFrame; id: number | null } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null };
  }
  if (typeof value !== 'object' || value === null) return { id: null };
  const frame = value as Partial<ClientFrame>;
  const id = Number.isSafeInteger(frame.id) ? (frame.id as number) : null;
  if (frame.type !== 'call' || id === null || typeof frame.method !== 'string') return { id };
  return { frame: frame as ClientFrame, id };
}
