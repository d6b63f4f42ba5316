import type { StoredOAuthTokens } from '@modelcontextprotocol/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { KeyFileSecretBox } from '../secrets/key-file-secret-box';
import { openDatabase } from '../store/database';
import { accountFromTokens, jwtDisplayName } from './account-name';
import { OAuthCredentialStore } from './oauth-store';
import { ServerCredentials } from './server-credentials';

function setup() {
  const dir = tempDir('patchbay-oauth-store-');
  const { db } = openDatabase(dir);
  onTestFinished(() => {
    db.close();
  });
  for (const id of ['a', 'b']) {
    db.prepare(
      `INSERT INTO servers (id, name, name_key, command, args, cwd, enabled, init_timeout_ms, request_timeout_ms, auto_restart, position, created_at, updated_at)
       VALUES (?, ?, ?, '', '[]', '', 1, 1000, 1000, 1, 0, '', '')`,
    ).run(id, id, id);
  }
  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
  return { db, dir, now, store: new OAuthCredentialStore({ db, secrets: new KeyFileSecretBox(dir), now }) };
}

const tokens = (access: string, extra: Partial<StoredOAuthTokens> = {}): StoredOAuthTokens => ({
  access_token: access,
  token_type: 'Bearer',
  ...extra,
});
const jwt = (claims: object) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;

describe('OAuth credential store', () => {
  it('keeps client registrations per issuer and tokens per server and issuer; the latest wins', async () => {
    const { store } = setup();
    await store.saveClient('https://as1', { client_id: 'c1', client_secret: 's1', issuer: 'https://as1' });
    await store.saveClient('https://as2', { client_id: 'c2', issuer: 'https://as2' });
    expect(await store.client('https://as1')).toEqual({ client_id: 'c1', client_secret: 's1', issuer: 'https://as1' });
    expect((await store.clients()).map((entry) => entry.issuer)).toEqual(['https://as2', 'https://as1']);

    await store.saveTokens('a', 'https://as1', { tokens: tokens('t1'), obtainedAt: 'x', serverUrl: 'https://mcp/a' });
    await store.saveTokens('a', 'https://as2', { tokens: tokens('t2'), obtainedAt: 'x', serverUrl: 'https://mcp/a' });
    await store.saveTokens('b', 'https://as1', { tokens: tokens('t3'), obtainedAt: 'x', serverUrl: 'https://mcp/b' });
    expect((await store.tokens('a', 'https://as1'))?.tokens.access_token).toBe('t1');
    expect(await store.latestTokens('a')).toMatchObject({ issuer: 'https://as2', tokens: { access_token: 't2' } });
    await store.saveTokens('a', 'https://as1', { tokens: tokens('t1b'), obtainedAt: 'x', serverUrl: 'https://mcp/a' });
    expect(await store.latestTokens('a')).toMatchObject({ issuer: 'https://as1', tokens: { access_token: 't1b' } });

    store.forgetTokens('a');
    expect(await store.latestTokens('a')).toBeUndefined();
    expect(store.serversWithTokens()).toEqual(['b']);
    expect(await store.client('https://as1')).toBeDefined();
  });

  it('treats a value it cannot open (another key) as absent', async () => {
    const { db, now } = setup();
    const first = new OAuthCredentialStore({ db, secrets: new KeyFileSecretBox(tempDir()), now });
    await first.saveClient('https://as', { client_id: 'c' });
    const second = new OAuthCredentialStore({ db, secrets: new KeyFileSecretBox(tempDir()), now });
    expect(await second.client('https://as')).toBeUndefined();
  });

  it('binds tokens to the server URL they were obtained for, and carries the account over a refresh', async () => {
    const { store, now } = setup();
    let url = 'https://mcp.example.com/mcp';
    const credentials = new ServerCredentials(store, 'a', () => url, now);
    await credentials.save('https://as', tokens('t1', { id_token: jwt({ sub: 'u1', email: 'ada@example.com' }) }));
    const refreshed = await credentials.save('https://as', tokens('t2'));
    expect(refreshed.account).toBe('ada@example.com');
    url = 'https://other.example.com/mcp';
    expect(await credentials.latest()).toBeUndefined();
    expect(await new ServerCredentials(store, 'a', () => url, now).forIssuer('https://as')).toBeUndefined();
  });
});

describe('account names', () => {
  it('reads email, preferred_username, name or sub from a JWT, without trusting it', () => {
    expect(jwtDisplayName(jwt({ sub: 's', name: 'Ada', preferred_username: 'ada', email: 'ada@example.com' }))).toBe('ada@example.com');
    expect(jwtDisplayName(jwt({ sub: 's', name: 'Ada L.' }))).toBe('Ada L.');
    expect(jwtDisplayName(jwt({ sub: 'only-sub\u0007' }))).toBe('only-sub');
    expect(jwtDisplayName('opaque-token')).toBeUndefined();
    expect(jwtDisplayName('a.%%%.c')).toBeUndefined();
    expect(accountFromTokens(tokens(jwt({ preferred_username: 'from-access' })))).toBe('from-access');
  });
});
