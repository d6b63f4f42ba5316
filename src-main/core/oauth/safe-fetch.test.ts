import type { FetchLike } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from './address-kinds';
import { checkAuthorizationUrl, OAuthHopGuard, OAuthHopRefusedError, type LookupAll } from './oauth-hop-guard';
import { guardedFetch } from './safe-fetch';

/** A resolver that knows a few names (and fails the test if asked about another). */
function lookupOf(table: Record<string, string[]>): LookupAll & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`unknown host ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}

/** A network that answers from a script, recording what was asked. */
function network(answers: Record<string, () => Response>): FetchLike & { calls: Array<{ url: string; init?: RequestInit }> } {
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  const fetchFn: FetchLike = async (url, init) => {
    calls.push({ url: String(url), init });
    const answer = answers[String(url)];
    if (!answer) throw new Error(`unexpected request to ${String(url)}`);
    return answer();
  };
  return Object.assign(fetchFn, { calls });
}

const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });
const ok =
  (body = 'ok') =>
  () =>
    new Response(body, { status: 200 });

const PUBLIC = { 'mcp.example.com': ['93.184.216.34'], 'auth.example.com': ['93.184.216.35'] };

function publicGuard(extra: Record<string, string[]> = {}) {
  const lookup = lookupOf({ ...PUBLIC, ...extra });
  return { lookup, guard: new OAuthHopGuard({ serverName: 'Example', serverUrl: new URL('https://mcp.example.com/mcp'), lookup }) };
}

describe('OAuth hop checks (SSRF)', () => {
  it('classifies addresses, including IPv4-mapped IPv6', () => {
    expect(['127.0.0.1', '::1'].map(classifyAddress)).toEqual(['loopback', 'loopback']);
    expect(['10.1.2.3', '172.20.0.1', '192.168.1.1', '100.64.0.1', 'fd00::1', 'fc00::2', '::ffff:10.0.0.1'].map(classifyAddress)).toEqual(
      Array(7).fill('private'),
    );
    expect(['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254'].map(classifyAddress)).toEqual(Array(3).fill('link-local'));
    expect(['0.0.0.0', '0.1.2.3', '::'].map(classifyAddress)).toEqual(Array(3).fill('unspecified'));
    expect(['93.184.216.34', '172.32.0.1', '2606:4700::1111'].map(classifyAddress)).toEqual(['public', 'public', 'public']);
  });

  it('refuses a private address, naming the host, the address and who pointed there', async () => {
    const { guard } = publicGuard({ 'auth.internal': ['10.0.0.5'] });
    await expect(guard.check(new URL('https://auth.internal/.well-known/oauth-authorization-server'))).rejects.toThrow(
      new OAuthHopRefusedError(
        "Patchbay did not contact auth.internal (10.0.0.5): a private address that Example's OAuth metadata pointed to.",
      ),
    );
    await expect(guard.check(new URL('https://[fe80::1]/token'))).rejects.toThrow(
      'Patchbay did not contact [fe80::1]: a link-local address',
    );
  });

  it('refuses a name with any private address among its answers, and this computer for a public server', async () => {
    const { guard } = publicGuard({ 'mixed.example.com': ['93.184.216.40', '192.168.0.7'], 'localhost.example.com': ['127.0.0.1'] });
    await expect(guard.check(new URL('https://mixed.example.com/'))).rejects.toThrow('mixed.example.com (192.168.0.7): a private address');
    await expect(guard.check(new URL('https://localhost.example.com/'))).rejects.toThrow(
      'localhost.example.com (127.0.0.1): an address on this computer',
    );
    await expect(guard.check(new URL('http://localhost:8080/token'))).rejects.toThrow(
      'Patchbay did not contact localhost: an address on this computer',
    );
  });

  it('requires https except on this computer', async () => {
    const { guard } = publicGuard();
    await expect(guard.check(new URL('http://auth.example.com/token'))).rejects.toThrow(
      "Patchbay did not contact auth.example.com: Example's OAuth metadata pointed to plain http:// (only https is allowed, or http on this computer).",
    );
    await expect(guard.check(new URL('https://auth.example.com/token'))).resolves.toBeUndefined();
    const local = new OAuthHopGuard({ serverName: 'Local', serverUrl: new URL('http://127.0.0.1:3000/mcp'), lookup: lookupOf({}) });
    await expect(local.check(new URL('http://127.0.0.1:9000/token'))).resolves.toBeUndefined();
    await expect(local.check(new URL('http://10.0.0.5/token'))).rejects.toThrow('plain http://');
  });

  it('exempts only the network the MCP server is in: private for a private server, never link-local or this computer', async () => {
    const lookup = lookupOf({
      'mcp.corp': ['10.1.2.3'],
      'auth.corp': ['10.0.0.5'],
      'meta.corp': ['169.254.169.254'],
      'me.corp': ['127.0.0.1'],
    });
    const guard = new OAuthHopGuard({ serverName: 'Corp', serverUrl: new URL('https://mcp.corp/mcp'), lookup });
    await expect(guard.check(new URL('https://auth.corp/authorize'))).resolves.toBeUndefined();
    await expect(guard.check(new URL('https://meta.corp/latest'))).rejects.toThrow(
      'Patchbay did not contact meta.corp (169.254.169.254): a link-local address (where cloud metadata services live)',
    );
    await expect(guard.check(new URL('https://me.corp/token'))).rejects.toThrow('me.corp (127.0.0.1): an address on this computer');
  });

  it('a server on this computer exempts loopback only: 169.254.169.254, 10.x, 192.168.x and fc00::/7 stay refused', async () => {
    const lookup = lookupOf({ 'auth.lan': ['192.168.1.20'] });
    const guard = new OAuthHopGuard({ serverName: 'Local', serverUrl: new URL('http://localhost:3000/mcp'), lookup });
    await expect(guard.check(new URL('http://127.0.0.1:9000/token'))).resolves.toBeUndefined();
    await expect(guard.check(new URL('https://[::1]:9000/token'))).resolves.toBeUndefined();
    for (const [url, what] of [
      ['https://169.254.169.254/latest/meta-data', '169.254.169.254: a link-local address'],
      ['https://10.0.0.1/token', '10.0.0.1: a private address'],
      ['https://auth.lan/token', 'auth.lan (192.168.1.20): a private address'],
      ['https://[fc00::1]/token', '[fc00::1]: a private address'],
      ['https://0.0.0.0/token', '0.0.0.0: the unspecified address'],
    ]) {
      await expect(guard.check(new URL(url))).rejects.toThrow(`Patchbay did not contact ${what}`);
    }
  });

  it("passes the MCP server's own origin without a lookup", async () => {
    const { guard, lookup } = publicGuard();
    await guard.check(new URL('https://mcp.example.com/.well-known/oauth-protected-resource/mcp'));
    expect(lookup.asked).toEqual([]);
  });

  it('says when a host cannot be found', async () => {
    const { guard } = publicGuard();
    await expect(guard.check(new URL('https://nowhere.example.com/'))).rejects.toThrow(
      'Patchbay could not find nowhere.example.com (ENOTFOUND).',
    );
  });

  it('checks the authorization URL before a browser opens it', () => {
    expect(() => checkAuthorizationUrl(new URL('https://auth.example.com/authorize'), 'Example')).not.toThrow();
    expect(() => checkAuthorizationUrl(new URL('http://127.0.0.1:9/authorize'), 'Example')).not.toThrow();
    expect(() => checkAuthorizationUrl(new URL('http://auth.example.com/authorize'), 'Example')).toThrow(
      "Example's authorization server gave a sign-in address that is not https",
    );
    expect(() => checkAuthorizationUrl(new URL('javascript:alert(1)'), 'Example')).toThrow('not https');
  });
});

describe('guarded fetch', () => {
  it('passes requests to the MCP server untouched, redirects and all', async () => {
    const { guard, lookup } = publicGuard();
    const next = network({ 'https://mcp.example.com/mcp': redirect('https://elsewhere.example/') });
    const response = await guardedFetch(next, guard)('https://mcp.example.com/mcp', { method: 'POST', redirect: 'follow' });
    expect(response.status).toBe(302);
    expect(next.calls[0].init).toEqual({ method: 'POST', redirect: 'follow' });
    expect(lookup.asked).toEqual([]);
  });

  it('refuses a redirect to a private address after the first hop', async () => {
    const { guard } = publicGuard({ 'sso.internal': ['192.168.1.10'] });
    const next = network({ 'https://auth.example.com/.well-known/oauth-authorization-server': redirect('https://sso.internal/metadata') });
    await expect(guardedFetch(next, guard)('https://auth.example.com/.well-known/oauth-authorization-server')).rejects.toThrow(
      "Patchbay did not contact sso.internal (192.168.1.10): a private address that a redirect on the way to Example's sign-in pointed to.",
    );
    expect(next.calls).toHaveLength(1);
  });

  it('follows public redirects by hand: 303 turns a POST into a GET, credentials stay with their origin', async () => {
    const { guard } = publicGuard({ 'auth2.example.com': ['93.184.216.36'] });
    const next = network({
      'https://auth.example.com/token': redirect('https://auth.example.com/token2', 307),
      'https://auth.example.com/token2': redirect('https://auth2.example.com/done', 303),
      'https://auth2.example.com/done': ok('{}'),
    });
    const response = await guardedFetch(next, guard)('https://auth.example.com/token', {
      method: 'POST',
      body: 'grant_type=x',
      headers: { authorization: 'Basic abc', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    const [first, second, third] = next.calls;
    expect(first.init?.redirect).toBe('manual');
    expect(second.init).toMatchObject({ method: 'POST', body: 'grant_type=x' });
    expect(new Headers(second.init?.headers).get('authorization')).toBe('Basic abc');
    expect(third.init).toMatchObject({ method: 'GET', body: undefined });
    expect([...new Headers(third.init?.headers).keys()]).toEqual([]);
  });

  it('a network failure names the host (the endpoint, once known) and the cause', async () => {
    const { guard } = publicGuard();
    guard.learnEndpoints({ token_endpoint: 'https://auth.example.com/oauth/token' });
    const refused: FetchLike = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    };
    await expect(guardedFetch(refused, guard)('https://auth.example.com/oauth/token', { method: 'POST' })).rejects.toThrow(
      'Patchbay cannot reach the token endpoint of auth.example.com: connection refused (ECONNREFUSED)',
    );
    const expired: FetchLike = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }) });
    };
    await expect(guardedFetch(expired, guard)('https://auth.example.com/.well-known/oauth-authorization-server')).rejects.toThrow(
      'Patchbay cannot reach auth.example.com: its TLS certificate has expired (CERT_HAS_EXPIRED)',
    );
  });

  it("refuses, by name, a redirect to another origin that the SDK's own follower would leave unexplained", async () => {
    const { guard } = publicGuard();
    guard.learnEndpoints({ token_endpoint: 'https://auth.example.com/token' });
    const next = network({ 'https://auth.example.com/token': redirect('https://other.example.com/token', 307) });
    await expect(guardedFetch(next, guard)('https://auth.example.com/token', { method: 'POST', redirect: 'manual' })).rejects.toThrow(
      'the token endpoint of auth.example.com redirected to another origin (other.example.com): Patchbay refused to follow it',
    );
    expect(next.calls).toHaveLength(1);
  });

  it('hands each hop back to a caller that follows redirects itself, and stops after five', async () => {
    const { guard } = publicGuard();
    const loop = network({ 'https://auth.example.com/a': redirect('https://auth.example.com/a') });
    const manual = await guardedFetch(loop, guard)('https://auth.example.com/a', { redirect: 'manual' });
    expect(manual.status).toBe(302);
    await expect(guardedFetch(loop, guard)('https://auth.example.com/a')).rejects.toThrow(
      'Patchbay stopped following redirects from auth.example.com after 5.',
    );
    expect(loop.calls).toHaveLength(1 + 6);
  });
});
