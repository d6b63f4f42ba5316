import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * The same policy the Electron window enforces through index.html's meta tag, as a header here —
 * narrower in one place: frames only from the app origin of this launch (the meta tag allows any
 * loopback port; the browser enforces both).
 */
export function contentSecurityPolicy(wsOrigin: string, appOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `connect-src 'self' ${wsOrigin}`,
    `frame-src ${appOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export type StaticTarget = { file: string; isIndex: boolean } | { status: number; message: string };

/**
 * Maps a URL path to a file of the built renderer. Paths resolve inside `root` only; unknown paths
 * without an extension get index.html (client-side navigation), unknown files get 404.
 */
export function resolveStatic(root: string, urlPath: string): StaticTarget {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return { status: 400, message: 'Bad path' };
  }
  const resolved = path.resolve(root, '.' + path.posix.normalize('/' + relative));
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return { status: 403, message: 'Forbidden' };
  const index = path.join(root, 'index.html');
  if (isFile(resolved)) return { file: resolved, isIndex: resolved === index };
  if (path.extname(relative)) return { status: 404, message: 'Not found' };
  if (!isFile(index)) return { status: 500, message: 'The renderer is not built: run `npm run build`.' };
  return { file: index, isIndex: true };
}

/** Sends a renderer file; index.html goes through `transformIndex` and is never cached. */
export function sendStatic(
  target: { file: string; isIndex: boolean },
  res: ServerResponse,
  headers: Record<string, string>,
  transformIndex: (html: string) => string,
): void {
  const type = CONTENT_TYPES[path.extname(target.file)] ?? 'application/octet-stream';
  if (target.isIndex) {
    const html = transformIndex(fs.readFileSync(target.file, 'utf8'));
    res.writeHead(200, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-store' }).end(html);
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' });
  fs.createReadStream(target.file).pipe(res);
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
