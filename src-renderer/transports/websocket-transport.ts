import {
  WS_CREDENTIAL_PREFIX,
  WS_PATH,
  WS_SUBPROTOCOL,
  type CallResult,
  type HostEvent,
  type HostMethodName,
  type ServerFrame,
} from '../../src-preload/contract';
import type { ConnectionState, HostTransport } from '../host-client';

interface Pending {
  resolve(result: CallResult): void;
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

  const failPending = (message: string) => {
    for (const [id, call] of pending) {
      pending.delete(id);
      call.resolve({ ok: false, error: { code: 'internal', message } });
    }
  };

  const open = () => {
    socket = new WebSocket(url, [WS_SUBPROTOCOL, WS_CREDENTIAL_PREFIX + options.credential]);
    socket.onopen = () => {
      attempt = 0;
      setState('connected');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame;
      if (frame.type === 'event') {
        for (const listener of eventListeners) listener(frame.event);
      } else if (frame.id !== null) {
        pending.get(frame.id)?.resolve(frame.result);
        pending.delete(frame.id);
      }
    };
    socket.onclose = () => {
      queue.length = 0;
      failPending('Disconnected from the Patchbay host');
      setState('disconnected');
      setTimeout(open, backoff(attempt++));
    };
  };
  open();

  return {
    call(method: HostMethodName, input: unknown) {
      const id = nextId++;
      const frame = JSON.stringify({ type: 'call', id, method, input });
      return new Promise<CallResult>((resolve) => {
        pending.set(id, { resolve });
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
