import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { WS_CREDENTIAL_PREFIX } from '@contract';

/**
 * Who may talk to the web-mode host. Every request must name our loopback address and port in `Host`
 * (defeats DNS rebinding) and, when it has an `Origin` (WebSockets always must), our own origin.
 * Beyond that there are two credentials, deliberately of different strength:
 *
 *  - Pages and assets: the per-launch token (`?token=`, the printed URL) or the asset cookie a tokened
 *    load hands out. Cookies are sent to every port of 127.0.0.1, so the cookie unlocks nothing but
 *    the public renderer files.
 *  - The WebSocket (the whole host API): the session credential, which only a tokened page load reveals
 *    (in a meta tag), and which the page keeps in sessionStorage — scoped to our origin and tab — and
 *    presents as a WebSocket subprotocol.
 *
 * Both derive from a key kept in the data directory (owner-only), so an open tab reconnects by itself
 * after a host restart, while the printed URL's token changes with every launch.
 */
export class WebAuth {
  readonly token = crypto.randomBytes(24).toString('base64url');
  readonly assetCookieName: string;
  private readonly assetCookieValue: string;
  readonly sessionCredential: string;
  private port = 0;

  constructor(dataDir: string) {
    const key = loadOrCreateSessionKey(dataDir);
    const derive = (purpose: string) => crypto.createHmac('sha256', key).update(purpose).digest('base64url');
    this.assetCookieName = `patchbay_assets_${crypto.createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
    this.assetCookieValue = derive('patchbay-web-assets-v1');
    this.sessionCredential = derive('patchbay-web-session-v1');
  }

  /** Must be called once the server listens, before any request is judged. */
  setPort(port: number): void {
    this.port = port;
  }

  allowedHosts(): string[] {
    return [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
  }

  allowedOrigins(): string[] {
    return this.allowedHosts().map((host) => `http://${host}`);
  }

  /** Why a page or asset request is refused, or undefined when it may be served. */
  httpRefusal(req: IncomingMessage): string | undefined {
    return this.placeRefusal(req, false) ?? (this.hasToken(req) || this.hasAssetCookie(req) ? undefined : 'missing or wrong token');
  }

  /** Why a WebSocket upgrade is refused, or undefined when it may connect. */
  socketRefusal(req: IncomingMessage): string | undefined {
    return this.placeRefusal(req, true) ?? (this.hasSessionCredential(req) ? undefined : 'missing or wrong session credential');
  }

  /** True when the URL carries the per-launch token (the link the host printed). */
  hasToken(req: IncomingMessage): boolean {
    const given = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
    return given !== null && safeEqual(given, this.token);
  }

  assetCookieHeader(): string {
    return `${this.assetCookieName}=${this.assetCookieValue}; HttpOnly; SameSite=Strict; Path=/`;
  }

  private placeRefusal(req: IncomingMessage, requireOrigin: boolean): string | undefined {
    if (!this.allowedHosts().includes(req.headers.host ?? '')) return 'foreign Host header';
    const origin = req.headers.origin;
    if (origin === undefined ? requireOrigin : !this.allowedOrigins().includes(origin)) return 'foreign Origin';
    return undefined;
  }

  private hasAssetCookie(req: IncomingMessage): boolean {
    const given = parseCookies(req.headers.cookie).get(this.assetCookieName);
    return given !== undefined && safeEqual(given, this.assetCookieValue);
  }

  private hasSessionCredential(req: IncomingMessage): boolean {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const given = offered.find((p) => p.startsWith(WS_CREDENTIAL_PREFIX))?.slice(WS_CREDENTIAL_PREFIX.length);
    return given !== undefined && safeEqual(given, this.sessionCredential);
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

const SESSION_KEY_FILE = 'web-session.key';

function loadOrCreateSessionKey(dataDir: string): Buffer {
  const file = path.join(dataDir, SESSION_KEY_FILE);
  try {
    const key = fs.readFileSync(file);
    if (key.length >= 32) return key;
  } catch {
    // Missing: create it below.
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key, { mode: 0o600 });
  return key;
}
