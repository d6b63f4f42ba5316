import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { MAX_CALL_BYTES, SESSION_META_NAME, WS_PATH, WS_SUBPROTOCOL } from '@contract';
import type { Host } from '../core/host';
import { contentSecurityPolicy, resolveStatic, sendStatic } from './static-files';
import { WebAuth } from './web-auth';
import { bridgeWebSocket } from './ws-bridge';

export interface WebServerOptions {
  host: Host;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
}

export interface WebServer {
  port: number;
  /** The URL to open: carries the per-launch token. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The hard cap on a WebSocket frame; calls between MAX_CALL_BYTES and this get a polite error first. */
const WS_HARD_LIMIT = 8 * MAX_CALL_BYTES;

/**
 * Web mode: serves the renderer and the contract (over a WebSocket) on 127.0.0.1 only. Every request
 * is checked by `WebAuth` first; a refused one gets 403 and reaches nothing else.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const auth = new WebAuth(options.dataDir);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WS_HARD_LIMIT,
    // The client offers our protocol plus its credential; only our protocol is ever echoed back.
    handleProtocols: (offered) => (offered.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
  });
  wss.on('connection', (socket) => bridgeWebSocket(socket, options.host));

  const server = http.createServer((req, res) => {
    const refusal = auth.httpRefusal(req);
    if (refusal) return forbid(res, refusal);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end('Method not allowed');
      return;
    }
    const target = resolveStatic(options.rendererDir, new URL(req.url ?? '/', 'http://x').pathname);
    if ('status' in target) {
      res.writeHead(target.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(target.message);
      return;
    }
    const tokened = auth.hasToken(req);
    const headers: Record<string, string> = {
      'Content-Security-Policy': contentSecurityPolicy(`ws://127.0.0.1:${port} ws://localhost:${port}`, appOrigin),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      ...(tokened ? { 'Set-Cookie': auth.assetCookieHeader() } : {}),
    };
    // Only a load through the printed (tokened) URL hands the tab its WebSocket credential.
    sendStatic(target, res, headers, (html) => (tokened ? withSessionMeta(html, auth.sessionCredential) : html));
  });

  server.on('upgrade', (req, socket, head) => {
    const refusal = auth.socketRefusal(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (refusal || path !== WS_PATH) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  auth.setPort(port);
  // MCP Apps are shown on a second loopback origin (its own port) that only our pages may frame.
  options.host.appFrames.setParentOrigins(auth.allowedOrigins());
  const appOrigin = await options.host.appFrames.start();

  return {
    port,
    token: auth.token,
    url: `http://127.0.0.1:${port}/?token=${auth.token}`,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Puts the credential meta tag first in <head>, or right after the doctype when there is no <head> tag. */
function withSessionMeta(html: string, credential: string): string {
  const meta = `<meta name="${SESSION_META_NAME}" content="${credential}">`;
  const anchor = /<head[^>]*>/i.test(html) ? /<head[^>]*>/i : /^(\s*<!doctype[^>]*>)?/i;
  return html.replace(anchor, (found) => found + meta);
}

function forbid(res: http.ServerResponse, reason: string): void {
  res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Forbidden: ${reason}`);
}
