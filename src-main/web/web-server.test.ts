import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_CALL_BYTES, WS_CREDENTIAL_PREFIX, WS_SUBPROTOCOL, type ServerFrame } from '@contract';
import { createHost, type Host } from '../core/host';
import { tempDir } from '../test-support/temp-dir';
import { startWebServer, type WebServer } from './web-server';

const running: { host: Host; server: WebServer }[] = [];

async function start(dataDir = tempDir(), port = 0) {
  const rendererDir = tempDir('patchbay-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Patchbay</title>');
  const host = createHost({ mode: 'web', dataDir, appVersion: '9.9.9' });
  const server = await startWebServer({ host, rendererDir, dataDir, port });
  running.push({ host, server });
  return { host, server, dataDir };
}

afterEach(async () => {
  for (const { host, server } of running.splice(0)) {
    await server.close();
    await host.dispose();
  }
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathAndQuery, method, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Loads the printed URL as a browser would: returns the asset cookie and the tab's WebSocket credential. */
async function signIn(server: WebServer): Promise<{ cookie: string; credential: string }> {
  const reply = await get(server.port, `/?token=${server.token}`);
  expect(reply.status).toBe(200);
  const credential = /<meta name="patchbay-session" content="([^"]+)">/.exec(reply.body)?.[1];
  expect(credential).toBeTruthy();
  return { cookie: String(reply.headers['set-cookie']?.[0]).split(';')[0], credential: credential! };
}

const protocols = (credential: string) => [WS_SUBPROTOCOL, WS_CREDENTIAL_PREFIX + credential];

/** An authenticated socket that collects frames; `next` resolves with the first frame matching. */
async function openSocket(server: WebServer, credential: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, protocols(credential), {
    headers: { Origin: `http://127.0.0.1:${server.port}` },
  });
  const frames: ServerFrame[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    waiters.splice(0).forEach((wake) => wake());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = (predicate: (frame: ServerFrame) => boolean) =>
    new Promise<ServerFrame>((resolve) => {
      const check = () => {
        const found = frames.find(predicate);
        if (found) {
          frames.splice(frames.indexOf(found), 1);
          resolve(found);
        } else waiters.push(check);
      };
      check();
    });
  return { socket, next, sendRaw: (data: string | Buffer) => socket.send(data) };
}

function refusedUpgrade(port: number, offered: string[], headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, offered, { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', () => undefined);
  });
}

describe('web mode HTTP', () => {
  it('binds to 127.0.0.1 and prints a URL carrying the per-launch token', async () => {
    const { server } = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('answers 403 without a token, with a wrong token, a foreign Origin, or a foreign Host', async () => {
    const { server } = await start();
    const port = server.port;
    expect((await get(port, '/')).status).toBe(403);
    expect((await get(port, '/?token=wrong')).status).toBe(403);
    expect((await get(port, `/?token=${server.token}`, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(port, `/?token=${server.token}`, { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(port, `/?token=${server.token}`, { Host: `127.0.0.1:${port + 1}` })).status).toBe(403);
  });

  it('hands a tokened load the credential and an asset cookie; the cookie alone reveals no credential', async () => {
    const { server } = await start();
    const tokened = await get(server.port, `/?token=${server.token}`);
    expect(String(tokened.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    expect(tokened.headers['content-security-policy']).toContain("script-src 'self'");
    const { cookie, credential } = await signIn(server);
    const page = await get(server.port, '/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Patchbay</title>');
    expect(page.body).not.toContain(credential);
    expect(page.body).not.toContain('patchbay-session');
    expect((await get(server.port, '/../../etc/passwd', { Cookie: cookie })).body).not.toContain('root:');
    expect((await get(server.port, '/', { Cookie: cookie }, 'POST')).status).toBe(405);
  });

  it('keeps the tab credential valid across a host restart on the same data directory, but not the old token', async () => {
    const first = await start();
    const { cookie, credential } = await signIn(first.server);
    const oldToken = first.server.token;
    const port = first.server.port;
    const { host, server } = running.pop()!;
    await server.close();
    await host.dispose();

    const second = await start(first.dataDir, port);
    expect(second.server.token).not.toBe(oldToken);
    expect((await get(port, '/', { Cookie: cookie })).status).toBe(200);
    expect((await get(port, `/?token=${oldToken}`)).status).toBe(403);
    const ws = await openSocket(second.server, credential);
    ws.sendRaw(JSON.stringify({ type: 'call', id: 1, method: 'getSnapshot' }));
    expect(await ws.next((f) => f.type === 'result')).toMatchObject({ result: { ok: true } });
    ws.socket.close();
  });
});

describe('web mode WebSocket bridge', () => {
  it('refuses upgrades without the credential (the cookie is not enough), from a foreign or missing Origin or Host', async () => {
    const { server } = await start();
    const origin = `http://127.0.0.1:${server.port}`;
    const { cookie, credential } = await signIn(server);
    const good = protocols(credential);
    expect(await refusedUpgrade(server.port, [WS_SUBPROTOCOL], { Origin: origin })).toBe(403);
    expect(await refusedUpgrade(server.port, [WS_SUBPROTOCOL], { Origin: origin, Cookie: cookie })).toBe(403);
    expect(await refusedUpgrade(server.port, protocols('forged'), { Origin: origin })).toBe(403);
    expect(await refusedUpgrade(server.port, good, { Origin: 'http://evil.example' })).toBe(403);
    expect(await refusedUpgrade(server.port, good, {})).toBe(403);
    expect(await refusedUpgrade(server.port, good, { Origin: origin, Host: `evil.example:${server.port}` })).toBe(403);
    expect(await refusedUpgrade(server.port, good, { Origin: origin })).toBe(101);
  });

  it('answers garbage, wrong types, unknown methods and oversized frames with errors, and keeps working', async () => {
    const { server } = await start();
    const ws = await openSocket(server, (await signIn(server)).credential);
    const result = (id: number | null) => (frame: ServerFrame) => frame.type === 'result' && frame.id === id;

    ws.sendRaw('this is not json');
    expect(await ws.next(result(null))).toMatchObject({ result: { ok: false, error: { code: 'bad_request' } } });
    ws.sendRaw(JSON.stringify({ type: 'call', id: 1 }));
    expect(await ws.next(result(1))).toMatchObject({ result: { ok: false, error: { code: 'bad_request' } } });
    ws.sendRaw(Buffer.from([0, 1, 2, 3]));
    expect(await ws.next(result(null))).toMatchObject({ result: { ok: false, error: { code: 'bad_request' } } });
    ws.sendRaw(JSON.stringify({ type: 'call', id: 2, method: 'dropDatabase' }));
    expect(await ws.next(result(2))).toMatchObject({ result: { ok: false, error: { code: 'unknown_method' } } });
    ws.sendRaw(JSON.stringify({ type: 'call', id: 3, method: 'updateSettings', input: { theme: 5 } }));
    expect(await ws.next(result(3))).toMatchObject({ result: { ok: false, error: { code: 'invalid_input' } } });
    ws.sendRaw(JSON.stringify({ type: 'call', id: 4, method: 'updateSettings', input: { defaultModel: 'x'.repeat(2_000_000) } }));
    expect(await ws.next(result(4))).toMatchObject({ result: { ok: false, error: { code: 'payload_too_large' } } });

    ws.sendRaw(JSON.stringify({ type: 'call', id: 5, method: 'getSnapshot' }));
    const snapshot = await ws.next(result(5));
    expect(snapshot).toMatchObject({
      result: { ok: true, value: { info: { version: '9.9.9', mode: 'web' }, settings: { theme: 'system' } } },
    });
    ws.socket.close();
  });

  it('answers a call over the size limit with its own id and a message naming the limit', async () => {
    const { server } = await start();
    const ws = await openSocket(server, (await signIn(server)).credential);
    const anyResult = (frame: ServerFrame) => frame.type === 'result';
    // The renderer's transport writes the id first; a frame that puts type first is read too.
    const big = 'x'.repeat(MAX_CALL_BYTES + 10);
    ws.sendRaw(JSON.stringify({ id: 41, type: 'call', method: 'updateSettings', input: { defaultModel: big } }));
    const first = await ws.next(anyResult);
    expect(first).toMatchObject({ id: 41, result: { ok: false, error: { code: 'payload_too_large' } } });
    expect(first.type === 'result' && !first.result.ok && first.result.error.message).toMatch(/larger than the 1\u00a0MB a call may carry/);
    ws.sendRaw(JSON.stringify({ type: 'call', id: 42, method: 'updateSettings', input: { defaultModel: big } }));
    expect(await ws.next(anyResult)).toMatchObject({ id: 42, result: { ok: false, error: { code: 'payload_too_large' } } });
    // An id buried in the input is not taken for the call's own.
    ws.sendRaw(JSON.stringify({ type: 'call', method: 'updateSettings', input: { id: 43, defaultModel: big } }));
    expect(await ws.next(anyResult)).toMatchObject({ id: null, result: { ok: false, error: { code: 'payload_too_large' } } });
    ws.sendRaw(JSON.stringify({ id: 44, type: 'call', method: 'getSnapshot' }));
    expect(await ws.next(anyResult)).toMatchObject({ id: 44, result: { ok: true } });
    ws.socket.close();
  });

  it('closes a socket sent a frame over the hard cap with code 1009 and takes new connections', async () => {
    const { server } = await start();
    const { credential } = await signIn(server);
    const ws = await openSocket(server, credential);
    const closed = new Promise<number>((resolve) => ws.socket.once('close', (code) => resolve(code)));
    ws.sendRaw(Buffer.alloc(9 * MAX_CALL_BYTES, 0x20));
    expect(await closed).toBe(1009);
    const again = await openSocket(server, credential);
    again.sendRaw(JSON.stringify({ id: 1, type: 'call', method: 'getSnapshot' }));
    expect(await again.next((f) => f.type === 'result')).toMatchObject({ id: 1, result: { ok: true } });
    again.socket.close();
  });

  it('pushes settingsChanged to every connected socket after a committed update', async () => {
    const { server } = await start();
    const { credential } = await signIn(server);
    const a = await openSocket(server, credential);
    const b = await openSocket(server, credential);
    a.sendRaw(JSON.stringify({ type: 'call', id: 1, method: 'updateSettings', input: { theme: 'dark' } }));
    const isEvent = (frame: ServerFrame) => frame.type === 'event';
    expect(await b.next(isEvent)).toMatchObject({ event: { name: 'settingsChanged', payload: { theme: 'dark' } } });
    expect(await a.next((f) => f.type === 'result' && f.id === 1)).toMatchObject({ result: { ok: true, value: { theme: 'dark' } } });
    a.socket.close();
    b.socket.close();
  });
});
