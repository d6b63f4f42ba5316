/**
 * Patchbay's app origin: a second HTTP listener on 127.0.0.1 (its own port, so its own origin) that
 * serves the frame proxy (the MCP Apps spec's "sandbox proxy") and nothing else — in web mode and in the desktop app alike. Each app
 * view gets a one-time page (`/frame/<random id>`) sent with the Content-Security-Policy built for
 * that app; the page is gone once loaded (or after a minute unused), so an app navigating its frame
 * can never reload a proxy, let alone one with another policy. No cookies, no token: this origin
 * holds nothing, and the renderer's own origin (web mode's WebSocket, its session) refuses it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import { PROXY_SCRIPT, proxyPage } from './frame-proxy';

/**
 * The proxy page's sandbox, sent with its policy rather than as the frame's `sandbox` attribute: the
 * same flags (scripts, forms, its own origin — a different one from the renderer's — and no popups,
 * top navigation or modals), without the console warning Chromium prints for an attribute that allows
 * both scripts and same-origin (it cannot know the frame is cross-origin).
 */
export const PROXY_SANDBOX = 'sandbox allow-scripts allow-same-origin allow-forms';

/** How long a registered page waits to be loaded. */
const FRAME_TTL_MS = 60_000;
/** Most pages waiting at once (each is one open app view being loaded). */
const MAX_WAITING = 200;

interface WaitingFrame {
  csp: string;
  parentOrigin: string;
  expiresAt: number;
}

export class AppFrameServer {
  private server: http.Server | undefined;
  private starting: Promise<string> | undefined;
  private originValue: string | undefined;
  private parentOrigins: string[] = [];
  private readonly frames = new Map<string, WaitingFrame>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The renderer origins the proxy may serve (web mode: its two loopback spellings; the app: `file://`). */
  setParentOrigins(origins: readonly string[]): void {
    this.parentOrigins = [...origins];
  }

  /** The origins set by `setParentOrigins`. */
  allowedParents(): readonly string[] {
    return this.parentOrigins;
  }

  /** The app origin (`http://127.0.0.1:PORT`) once started. */
  get origin(): string | undefined {
    return this.originValue;
  }

  /** Listens on a free loopback port (once); resolves with the origin. */
  start(): Promise<string> {
    this.starting ??= new Promise<string>((resolve, reject) => {
      const server = http.createServer((req, res) => this.serve(req, res));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.server = server;
        this.originValue = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        resolve(this.originValue);
      });
    });
    return this.starting;
  }

  /** A one-time proxy page for an app with this policy; throws when the parent is not one of ours. */
  register(csp: string, parentOrigin: string): string {
    if (!this.originValue) throw new Error('The app sandbox is not running');
    if (!this.parentOrigins.includes(parentOrigin)) throw new Error(`Apps cannot be shown in a page from ${parentOrigin}`);
    this.sweep();
    if (this.frames.size >= MAX_WAITING) this.frames.delete(this.frames.keys().next().value as string);
    const id = crypto.randomBytes(18).toString('base64url');
    this.frames.set(id, { csp, parentOrigin, expiresAt: this.now() + FRAME_TTL_MS });
    return `${this.originValue}/frame/${id}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.frames.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const base = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };
    const deny = (status: number, text: string) =>
      res.writeHead(status, { ...base, 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
    // The Host must be this very address (DNS rebinding): the origin is the only thing it stands for.
    if (!this.originValue || `http://${req.headers.host ?? ''}` !== this.originValue) return void deny(403, 'Forbidden');
    if (req.method !== 'GET') return void deny(405, 'Method not allowed');
    const path = new URL(req.url ?? '/', this.originValue).pathname;
    if (path === '/proxy.js') {
      res
        .writeHead(200, {
          ...base,
          'Content-Type': 'text/javascript; charset=utf-8',
          'Content-Security-Policy': "default-src 'none'",
          'Cross-Origin-Resource-Policy': 'same-origin',
        })
        .end(PROXY_SCRIPT);
      return;
    }
    const match = /^\/frame\/([A-Za-z0-9_-]{24})$/.exec(path);
    const frame = match ? this.frames.get(match[1]) : undefined;
    if (!match || !frame || frame.expiresAt < this.now()) return void deny(404, 'Not found');
    this.frames.delete(match[1]);
    res
      .writeHead(200, { ...base, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': `${frame.csp}; ${PROXY_SANDBOX}` })
      .end(proxyPage(frame.parentOrigin));
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, frame] of this.frames) if (frame.expiresAt < now) this.frames.delete(id);
  }
}
