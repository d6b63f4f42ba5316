/**
 * Web mode's front door, checked with raw HTTP and WebSocket clients (what a hostile page, another
 * local user's script or a DNS-rebinding attack could send), and the WebSocket bridge's handling of
 * malformed calls. No browser: a browser would not let us forge these headers.
 */
import { ContractSocket, credentialProtocols, rawGet, signIn, tryUpgrade } from '../support/raw-client';
import { expect, test, type WebHost } from '../support/web-host';

const FOREIGN_ORIGIN = 'http://evil.example';

function wsUrl(host: WebHost, path = '/ws'): string {
  return `ws://127.0.0.1:${host.port}${path}`;
}

async function snapshot(host: WebHost): Promise<{ info: unknown; settings: unknown }> {
  const client = await ContractSocket.connect(wsUrl(host), { origin: host.origin, credential: (await signIn(host.url)).credential });
  try {
    const frame = await client.call(1, 'getSnapshot');
    expect(frame.result.ok, JSON.stringify(frame)).toBe(true);
    return (frame.result as { value: { info: unknown; settings: unknown } }).value;
  } finally {
    await client.close();
  }
}

test('refuses requests without the token, from foreign origins or hosts, and stays intact', async ({ webHost }) => {
  const { port, token } = webHost;
  const host = `127.0.0.1:${port}`;
  const before = await snapshot(webHost);
  const { cookie, credential } = await signIn(webHost.url);

  await test.step('the printed link hands out an HttpOnly asset cookie and the credential; the cookie alone reveals no credential', async () => {
    const res = await rawGet(port, `/?token=${encodeURIComponent(token)}`, { Host: host });
    expect(res.status).toBe(200);
    expect(res.body).toContain(credential);
    const setCookie = res.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Strict/i);
    const page = await rawGet(port, '/', { Host: host, Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(credential);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  await test.step('HTTP: no token, a wrong token, a foreign Origin or a foreign Host get 403', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['no token, no cookie', '/', { Host: host }],
      ['no token, an asset', '/index.html', { Host: host }],
      ['wrong token', `/?token=${'x'.repeat(token.length)}`, { Host: host }],
      ['wrong token of another length', '/?token=guess', { Host: host }],
      ['forged cookie', '/', { Host: host, Cookie: `${cookie.split('=')[0]}=forged` }],
      ['foreign Origin with a valid token', `/?token=${token}`, { Host: host, Origin: FOREIGN_ORIGIN }],
      ['foreign Origin with a valid cookie', '/', { Host: host, Origin: FOREIGN_ORIGIN, Cookie: cookie }],
      ['DNS rebinding: foreign Host with a valid token', `/?token=${token}`, { Host: `evil.example:${port}` }],
      ['DNS rebinding: foreign Host with a valid cookie', '/', { Host: `evil.example:${port}`, Cookie: cookie }],
    ];
    for (const [name, path, headers] of cases) {
      const res = await rawGet(port, path, headers);
      expect(res.status, name).toBe(403);
      expect(res.headers['set-cookie'], `${name}: no cookie may be handed out`).toBeUndefined();
    }
  });

  await test.step('WebSocket: upgrades without the credential (a cookie is not enough), or from a foreign/missing Origin, are refused', async () => {
    const good = credentialProtocols(credential);
    const cases: [string, string, { origin?: string; headers?: Record<string, string>; protocols?: string[] }][] = [
      ['no credential', wsUrl(webHost), { origin: webHost.origin }],
      ['only the asset cookie', wsUrl(webHost), { origin: webHost.origin, headers: { Cookie: cookie } }],
      ['forged credential', wsUrl(webHost), { origin: webHost.origin, protocols: credentialProtocols('forged') }],
      ['foreign Origin with a valid credential', wsUrl(webHost), { origin: FOREIGN_ORIGIN, protocols: good }],
      ['no Origin with a valid credential', wsUrl(webHost), { protocols: good }],
      [
        'foreign Host with a valid credential',
        wsUrl(webHost),
        { origin: webHost.origin, protocols: good, headers: { Host: `evil.example:${port}` } },
      ],
      ['another path with a valid credential', wsUrl(webHost, '/other'), { origin: webHost.origin, protocols: good }],
    ];
    for (const [name, url, options] of cases) {
      const outcome = await tryUpgrade(url, options);
      expect(outcome, name).toEqual({ opened: false, status: 403 });
    }
  });

  await test.step('afterwards the host still works and nothing changed', async () => {
    const res = await rawGet(port, '/', { Host: host, Cookie: cookie });
    expect(res.status).toBe(200);
    expect(await snapshot(webHost)).toEqual(before);
    expect(webHost.running).toBe(true);
  });
});

test('answers malformed calls with errors and keeps the socket usable', async ({ webHost }) => {
  const client = await ContractSocket.connect(wsUrl(webHost), {
    origin: webHost.origin,
    credential: (await signIn(webHost.url)).credential,
  });
  try {
    const initial = await client.call(1, 'getSnapshot');
    expect(initial.result.ok).toBe(true);
    const settingsBefore = (initial.result as { value: { settings: Record<string, unknown> } }).value.settings;

    await test.step('garbage → bad_request', async () => {
      client.sendRaw('this is not JSON {');
      const frame = await client.nextResult();
      expect(frame).toMatchObject({ type: 'result', id: null, result: { ok: false, error: { code: 'bad_request' } } });

      client.sendRaw(JSON.stringify({ type: 'call', id: 2 }));
      expect(await client.nextResult()).toMatchObject({ id: 2, result: { ok: false, error: { code: 'bad_request' } } });

      client.sendRaw(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
      expect(await client.nextResult()).toMatchObject({ id: null, result: { ok: false, error: { code: 'bad_request' } } });
    });

    await test.step('unknown method → unknown_method', async () => {
      expect(await client.call(3, 'dropAllTables', {})).toMatchObject({ id: 3, result: { ok: false, error: { code: 'unknown_method' } } });
      expect(await client.call(4, '__proto__')).toMatchObject({ id: 4, result: { ok: false, error: { code: 'unknown_method' } } });
    });

    await test.step('wrong input types → invalid_input, naming the field', async () => {
      const frame = await client.call(5, 'updateSettings', { theme: 5 });
      expect(frame).toMatchObject({ id: 5, result: { ok: false, error: { code: 'invalid_input', data: [{ path: ['theme'] }] } } });
      expect(await client.call(6, 'updateSettings', { unknownKey: true })).toMatchObject({
        id: 6,
        result: { ok: false, error: { code: 'invalid_input' } },
      });
      expect(await client.call(7, 'updateSettings', 'dark')).toMatchObject({
        id: 7,
        result: { ok: false, error: { code: 'invalid_input' } },
      });
    });

    await test.step('2 MB call → payload_too_large', async () => {
      client.sendRaw(
        JSON.stringify({ type: 'call', id: 8, method: 'updateSettings', input: { defaultModel: 'x'.repeat(2 * 1024 * 1024) } }),
      );
      const frame = await client.nextResult();
      expect(frame).toMatchObject({ type: 'result', result: { ok: false, error: { code: 'payload_too_large' } } });
    });

    await test.step('the same socket still serves valid calls, and nothing was changed', async () => {
      expect(client.isOpen).toBe(true);
      const after = await client.call(9, 'getSnapshot');
      expect(after).toMatchObject({ id: 9, result: { ok: true } });
      expect((after.result as { value: { settings: unknown } }).value.settings).toEqual(settingsBefore);

      const update = await client.call(10, 'updateSettings', { theme: 'dark' });
      expect(update).toMatchObject({ id: 10, result: { ok: true, value: { ...settingsBefore, theme: 'dark' } } });
    });
  } finally {
    await client.close();
  }
});
