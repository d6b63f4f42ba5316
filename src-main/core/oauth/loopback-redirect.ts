/**
 * The loopback redirect of a native OAuth client (RFC 8252 §7.3): one small HTTP listener on
 * 127.0.0.1, started when a sign-in needs it and closed when none is pending, answering
 * `/oauth/callback`. A callback is only accepted with the exact `state` of a pending sign-in; the
 * browser waits for the sign-in to say how it ended, so the page it shows tells the truth.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAGE_HEADERS, renderCallbackPage, type CallbackPage } from './callback-page';

export const CALLBACK_PATH = '/oauth/callback';
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** How long the browser may wait for the sign-in to finish before it gets a generic page. */
const RESPOND_TIMEOUT_MS = 60_000;

/** A callback the browser delivered for a pending sign-in. */
export interface LoopbackCallback {
  params: URLSearchParams;
  /** Answers the browser (once; later calls do nothing). */
  respond(page: CallbackPage): void;
}

/** A registered expectation: where to send the browser, and the callback when it comes. */
export interface LoopbackExpectation {
  redirectUrl: string;
  callback: Promise<LoopbackCallback>;
}

interface Waiting {
  resolve(callback: LoopbackCallback): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class LoopbackRedirect {
  private server: http.Server | undefined;
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private lastPort: number | undefined;
  private disposed = false;
  private readonly waiting = new Map<string, Waiting>();
  private readonly answering = new Set<(page: CallbackPage) => void>();

  constructor(private readonly options: { timeoutMs?: number } = {}) {}

  /** The port while listening. */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  /**
   * Waits for the callback carrying `state`, starting the listener when needed: on the first free
   * port of `preferredPorts` (those of redirect URIs already registered), else the last one used,
   * else any free port.
   */
  async expect(state: string, preferredPorts: number[] = []): Promise<LoopbackExpectation> {
    if (this.disposed) throw new Error('Patchbay is shutting down.');
    if (this.waiting.has(state)) throw new Error('This sign-in is already waiting for its callback.');
    const callback = new Promise<LoopbackCallback>((resolve, reject) => {
      const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timer = setTimeout(
        () => this.settle(state, new Error(`the browser did not come back within ${describeDuration(timeoutMs)}`)),
        timeoutMs,
      );
      this.waiting.set(state, { resolve, reject, timer });
    });
    callback.catch(() => undefined); // the sign-in awaits it later; never an unhandled rejection meanwhile
    try {
      await this.closing;
      this.starting ??= this.listen([...preferredPorts, ...(this.lastPort ? [this.lastPort] : [])]).finally(
        () => (this.starting = undefined),
      );
      await this.starting;
    } catch (error) {
      this.settle(state, error as Error);
      throw error;
    }
    return { redirectUrl: `http://127.0.0.1:${this.port}${CALLBACK_PATH}`, callback };
  }

  /** Gives up waiting for `state` (a newer sign-in superseded it). */
  cancel(state: string, reason: Error): void {
    this.settle(state, reason);
  }

  /** Rejects every pending sign-in, answers waiting browsers, and closes the listener. */
  async close(): Promise<void> {
    this.disposed = true;
    for (const state of [...this.waiting.keys()]) this.settle(state, new Error('Patchbay is shutting down.'));
    for (const respond of [...this.answering]) respond({ ok: false, title: 'Patchbay closed before the sign-in finished' });
    await this.starting?.catch(() => undefined);
    this.server?.closeAllConnections();
    await this.shutDown();
  }

  private async listen(ports: number[]): Promise<void> {
    if (this.server) return;
    for (const port of [...new Set(ports), 0]) {
      const server = http.createServer((req, res) => this.handle(req, res));
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => resolve());
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && port !== 0) continue;
        throw error;
      }
      this.server = server;
      this.lastPort = this.port;
      return;
    }
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const send = (status: number, page: CallbackPage) => {
      res.writeHead(status, PAGE_HEADERS);
      res.end(renderCallbackPage(page));
    };
    // A page elsewhere that resolves its own name to 127.0.0.1 (DNS rebinding) sends its own Host.
    if (req.headers.host !== `127.0.0.1:${this.port}`) return send(421, { ok: false, title: 'Wrong address' });
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (url.pathname !== CALLBACK_PATH) return send(404, { ok: false, title: 'Nothing here' });
    if (req.method !== 'GET') return send(405, { ok: false, title: 'Nothing here' });
    const state = url.searchParams.get('state') ?? '';
    const waiting = this.waiting.get(state);
    if (!waiting) {
      return send(400, {
        ok: false,
        title: 'Patchbay was not expecting this sign-in',
        detail: 'It may have been cancelled, replaced by a newer one, finished already or timed out. Start it again from Patchbay.',
      });
    }
    this.waiting.delete(state);
    clearTimeout(waiting.timer);
    const respond = (page: CallbackPage) => {
      if (!this.answering.delete(respond)) return;
      clearTimeout(guard);
      send(page.ok ? 200 : 400, page);
      this.closeIfIdle();
    };
    const guard = setTimeout(
      () => respond({ ok: false, title: 'Patchbay did not finish the sign-in in time', detail: 'Look at Patchbay for what happened.' }),
      RESPOND_TIMEOUT_MS,
    );
    this.answering.add(respond);
    waiting.resolve({ params: url.searchParams, respond });
  }

  private settle(state: string, error: Error): void {
    const waiting = this.waiting.get(state);
    if (!waiting) return;
    this.waiting.delete(state);
    clearTimeout(waiting.timer);
    waiting.reject(error);
    this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (this.waiting.size === 0 && this.answering.size === 0 && !this.starting) void this.shutDown();
  }

  private shutDown(): Promise<void> {
    const server = this.server;
    if (!server) return this.closing ?? Promise.resolve();
    this.server = undefined;
    this.closing = new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }).finally(() => (this.closing = undefined));
    return this.closing;
  }
}

function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${Math.round(ms / 100) / 10} s`;
}
