import http from 'node:http';
import net from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { waitFor } from '../servers/wait';
import { LoopbackRedirect } from './loopback-redirect';

function listener(options: { timeoutMs?: number } = {}): LoopbackRedirect {
  const loopback = new LoopbackRedirect(options);
  onTestFinished(() => loopback.close());
  return loopback;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

async function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

describe('loopback redirect listener', () => {
  it('accepts only the exact state, answers the browser when the sign-in says so, then closes', async () => {
    const loopback = listener();
    const { redirectUrl, callback } = await loopback.expect('the-state');
    expect(redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    let settled = false;
    void callback.then(() => (settled = true));

    const wrong = await get(`${redirectUrl}?code=c&state=other`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('Patchbay was not expecting this sign-in');
    expect((await get(`${redirectUrl}?code=c`)).status).toBe(400);
    expect(settled).toBe(false);

    const answer = get(`${redirectUrl}?code=abc&state=the-state&iss=x`);
    const arrived = await callback;
    expect(Object.fromEntries(arrived.params)).toEqual({ code: 'abc', state: 'the-state', iss: 'x' });
    arrived.respond({ ok: true, title: 'Signed in to <Fixture> — you can close this tab' });
    const page = await answer;
    expect(page.status).toBe(200);
    expect(page.body).toContain('Signed in to &#60;Fixture&#62; — you can close this tab');

    const port = Number(new URL(redirectUrl).port);
    expect((await get(`${redirectUrl}?code=abc&state=the-state`).catch(() => ({ status: 0 }))).status).not.toBe(200); // used once
    await waitFor(() => refusesConnections(port), { what: 'the idle listener to close' });
  });

  it('refuses other hosts (DNS rebinding), paths and methods', async () => {
    const loopback = listener();
    const { redirectUrl } = await loopback.expect('s');
    const url = new URL(redirectUrl);
    expect((await get(`${redirectUrl}?state=s`, { host: `evil.example:${url.port}` })).status).toBe(421);
    expect((await get(`${url.origin}/other?state=s`)).status).toBe(404);
    const post = await fetch(`${redirectUrl}?state=s`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('times out, and a cancelled expectation rejects with the reason', async () => {
    const loopback = listener({ timeoutMs: 100 });
    const first = await loopback.expect('slow');
    await expect(first.callback).rejects.toThrow('the browser did not come back within 0.1 s');
    const second = await loopback.expect('replaced');
    loopback.cancel('replaced', new Error('a newer sign-in replaced this one'));
    await expect(second.callback).rejects.toThrow('a newer sign-in replaced this one');
  });

  it('listens on a preferred port when it is free, and elsewhere when it is taken', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const taken = (probe.address() as net.AddressInfo).port;
    onTestFinished(() => new Promise<void>((resolve) => probe.close(() => resolve())));

    const loopback = listener();
    const elsewhere = await loopback.expect('a', [taken]);
    expect(Number(new URL(elsewhere.redirectUrl).port)).not.toBe(taken);
    loopback.cancel('a', new Error('done'));
    await waitFor(() => loopback.port === undefined, { what: 'the listener to close' });

    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const preferred = await loopback.expect('b', [taken]);
    expect(Number(new URL(preferred.redirectUrl).port)).toBe(taken);
  });

  it('close() rejects pending sign-ins and answers a waiting browser', async () => {
    const loopback = listener();
    const pending = await loopback.expect('p');
    const answered = await loopback.expect('q');
    const page = get(`${answered.redirectUrl}?code=c&state=q`);
    await answered.callback; // arrived; its sign-in never responds
    await loopback.close();
    await expect(pending.callback).rejects.toThrow('Patchbay is shutting down.');
    expect((await page).body).toContain('Patchbay closed before the sign-in finished');
    await expect(loopback.expect('r')).rejects.toThrow('Patchbay is shutting down.');
  });
});
