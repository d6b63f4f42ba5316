import {
  callSizeError,
  MAX_CALL_BYTES,
  WS_CREDENTIAL_PREFIX,
  WS_PATH,
  WS_SUBPROTOCOL,
  type CallResult,
  type HostEvent,
  type HostMethodName,
  type ServerFrame,
} from '@contract';
import type { ConnectionState, HostTransport } from '../host-client';

interface Pending {
  resolve(result: CallResult): void;
  /** The frame's size in bytes when it is over the host's call limit (else 0): such a call may be answered without its id. */
  oversizedBytes: number;
}

/** WebSocket close code for a frame over the receiver's hard cap ("message too big"). */
const CLOSE_MESSAGE_TOO_BIG = 1009;

/** A frame's UTF-8 size, but only counted when it could be over the limit (most calls are tiny). */
function oversizedBytes(frame: string): number {
  if (frame.length * 3 <= MAX_CALL_BYTES) return 0;
  const bytes = new TextEncoder().encode(frame).byteLength;
  return bytes > MAX_CALL_BYTES ? bytes : 0;
}

export interface WebSocketTransportOptions {
  /** The tab's session credential (see web-session.ts), presented as a subprotocol. */
  credential: string;
  url?: string;
  /** Delay before reconnect attempt n (0-based); capped backoff by default. */
  backoff?: (attempt: number) => number;
}

/**
 * Web mode: the contract over one WebSocket to the host that served this page (the session cookie it
 * set authenticates us). When the socket drops, pending calls fail with a clear error and the transport
 * reconnects by itself with capped backoff; listeners learn the connection state so the UI can say so.
 * No call is ever left pending: the host answers an oversized call with its id (read from the frame's
 * head, which is why the id is written first); an answer without an id fails the oversized calls, and a
 * socket the host closed for a frame over its hard cap fails that call as too large.
 */
export function createWebSocketTransport(options: WebSocketTransportOptions): HostTransport {
  const url = options.url ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
  const backoff = options.backoff ?? ((attempt: number) => Math.min(250 * 2 ** attempt, 3000));
  const eventListeners = new Set<(event: HostEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  let nextId = 1;
  let attempt = 0;
  let socket: WebSocket;
  let state: ConnectionState = 'connecting';

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const settle = (id: number, result: CallResult) => {
    pending.get(id)?.resolve(result);
    pending.delete(id);
  };

  /** Fails the pending calls over the size limit with `error(bytes)`; the others keep waiting. */
  const failOversized = (error: (bytes: number) => CallResult) => {
    for (const [id, call] of pending) if (call.oversizedBytes > 0) settle(id, error(call.oversizedBytes));
  };

  const failPending = (message: string) => {
    for (const id of [...pending.keys()]) settle(id, { ok: false, error: { code: 'internal', message } });
  };

  const receive = (data: unknown) => {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(data)) as ServerFrame;
    } catch {
      console.warn('Patchbay: ignored a frame from the host that is not JSON');
      return;
    }
    if (frame.type === 'event') {
      for (const listener of eventListeners) listener(frame.event);
    } else if (frame.id !== null) {
      settle(frame.id, frame.result);
    } else if (!frame.result.ok && frame.result.error.code === 'payload_too_large') {
      // The host could not read the id of a call it refused for its size: only an oversized call of ours can be it.
      const refusal = frame.result;
      failOversized(() => refusal);
    } else {
      console.warn('Patchbay: the host could not read a call', frame.result);
    }
  };

  const open = () => {
    socket = new WebSocket(url, [WS_SUBPROTOCOL, WS_CREDENTIAL_PREFIX + options.credential]);
    socket.onopen = () => {
      attempt = 0;
      setState('connected');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => receive(message.data);
    socket.onclose = (event) => {
      queue.length = 0;
      if (event.code === CLOSE_MESSAGE_TOO_BIG) {
        failOversized((bytes) => ({
          ok: false,
          error: {
            code: 'payload_too_large',
            message: `${callSizeError(bytes)?.message ?? 'This request is too large.'} The connection dropped it and is reconnecting.`,
          },
        }));
      }
      failPending('Disconnected from the Patchbay host');
      setState('disconnected');
      setTimeout(open, backoff(attempt++));
    };
  };
  open();

  return {
    call(method: HostMethodName, input: unknown) {
      const id = nextId++;
      // The id goes first: the host reads it from the head of a frame too large to parse.
      const frame = JSON.stringify({ id, type: 'call', method, input });
      return new Promise<CallResult>((resolve) => {
        pending.set(id, { resolve, oversizedBytes: oversizedBytes(frame) });
        if (socket.readyState === WebSocket.OPEN) socket.send(frame);
        else queue.push(frame);
      });
    },
    subscribe(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnectionChange(listener) {
      stateListeners.add(listener);
      listener(state);
      return () => stateListeners.delete(listener);
    },
  };
}
