/**
 * Talking to the web host without a browser: plain HTTP requests with hand-set headers, and WebSocket
 * clients (the `ws` package) that read frames one at a time. Used to check what a browser would never
 * send (a foreign Host header, no Origin, garbage frames).
 */
import http from 'node:http';
import WebSocket from 'ws';
import { SESSION_META_NAME, WS_CREDENTIAL_PREFIX, WS_SUBPROTOCOL, type ServerFrame } from '@contract';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One GET to 127.0.0.1:port with exactly the given headers (Host included, when given). */
export function rawGet(port: number, pathAndQuery: string, headers: Record<string, string> = {}, timeoutMs = 15_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathAndQuery, method: 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${pathAndQuery} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export interface SignedIn {
  /** The asset cookie (`name=value`): opens the renderer's files, nothing else. */
  cookie: string;
  /** The tab's WebSocket credential, from the meta tag of a tokened page load. */
  credential: string;
}

/** Loads the printed URL as a browser does and returns what it hands out. */
export async function signIn(printedUrl: string): Promise<SignedIn> {
  const url = new URL(printedUrl);
  const res = await rawGet(Number(url.port), url.pathname + url.search, { Host: url.host });
  if (res.status !== 200) throw new Error(`Expected 200 for the tokened URL, got ${res.status}: ${res.body}`);
  const setCookie = res.headers['set-cookie']?.[0];
  if (!setCookie) throw new Error('The tokened page carried no Set-Cookie');
  const credential = new RegExp(`<meta name="${SESSION_META_NAME}" content="([^"]+)">`).exec(res.body)?.[1];
  if (!credential) throw new Error('The tokened page carried no session credential');
  return { cookie: setCookie.split(';')[0], credential };
}

/** The subprotocols a browser tab offers: ours, and its credential. */
export function credentialProtocols(credential: string): string[] {
  return [WS_SUBPROTOCOL, WS_CREDENTIAL_PREFIX + credential];
}

export type UpgradeOutcome = { opened: true } | { opened: false; status?: number; error?: string };

/** Attempts a WebSocket upgrade and reports whether it was accepted; closes the socket if it was. */
export function tryUpgrade(
  url: string,
  options: { origin?: string; headers?: Record<string, string>; protocols?: string[] } = {},
  timeoutMs = 15_000,
): Promise<UpgradeOutcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, options.protocols ?? [], {
      origin: options.origin,
      headers: options.headers,
      handshakeTimeout: timeoutMs,
    });
    let settled = false;
    const settle = (outcome: UpgradeOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    socket.on('open', () => {
      settle({ opened: true });
      socket.terminate();
    });
    socket.on('unexpected-response', (_req, res) => {
      settle({ opened: false, status: res.statusCode });
      res.resume();
      socket.terminate();
    });
    socket.on('error', (error) => settle({ opened: false, error: error.message }));
    socket.on('close', () => settle({ opened: false, error: 'closed' }));
  });
}

/** A frame as the host sends it (the contract's own type). */
export type Frame = ServerFrame;

/** An authenticated contract client over one WebSocket, reading frames strictly in arrival order. */
export class ContractSocket {
  private readonly frames: Frame[] = [];
  private readonly waiters: (() => void)[] = [];
  private closed = false;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as Frame);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static connect(url: string, options: { origin: string; credential: string }, timeoutMs = 15_000): Promise<ContractSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, credentialProtocols(options.credential), { origin: options.origin, handshakeTimeout: timeoutMs });
      // Register the listeners before the first frame can arrive.
      const client = new ContractSocket(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`WebSocket upgrade refused: HTTP ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** The next frame that is a result (events in between are skipped). */
  async nextResult(timeoutMs = 15_000): Promise<Extract<Frame, { type: 'result' }>> {
    for (;;) {
      const frame = await this.next(timeoutMs);
      if (frame.type === 'result') return frame;
    }
  }

  /** Sends a call frame and returns the result frame answering it. */
  async call(id: number, method: string, input?: unknown): Promise<Extract<Frame, { type: 'result' }>> {
    this.sendRaw(JSON.stringify({ type: 'call', id, method, input }));
    return this.nextResult();
  }

  async next(timeoutMs = 15_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length === 0) {
      if (this.closed) throw new Error('The WebSocket closed while a frame was awaited');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames.shift()!;
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.terminate();
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
