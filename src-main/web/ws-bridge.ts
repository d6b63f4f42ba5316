import type { WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../../src-preload/contract';
import type { Host } from '../core/host';
import { checkCallSize, dispatchCall } from '../core/rpc/dispatch';

/**
 * Carries the contract over one WebSocket: each call frame is dispatched to the host and answered with
 * a result frame bearing the same id; every host event is pushed as an event frame. Garbage, wrong
 * types, unknown methods and oversized frames are answered with an error and the socket stays open.
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
    if (tooLarge) return send({ type: 'result', id: null, result: { ok: false, error: tooLarge } });
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
