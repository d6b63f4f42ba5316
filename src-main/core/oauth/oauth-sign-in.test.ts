import fs from 'node:fs';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../servers/wait';
import { startOAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness } from './test-support/oauth-harness';

describe('OAuth sign-in against a real authorization server', () => {
  it('signs in through the browser and the loopback redirect, stores sealed tokens, and a real transport calls a tool', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });

    const start = await h.area.handlers.signIn({ id: h.ref.id });
    expect(start.openedByHost).toBe(true);
    const url = new URL(start.authorizationUrl!);
    expect(url.origin).toBe(fixture.origin);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    expect(url.searchParams.get('resource')).toBe(fixture.mcpUrl);

    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });
    expect(h.view()).toEqual({ status: 'signed-in', issuer: fixture.origin, account: 'ada@example.com', tokenType: 'Bearer' });
    expect(h.control.published.map((view) => view?.status)).toEqual(['signing-in', 'signed-in']);
    expect(h.control.starts).toBe(1);
    const visit = await h.browser.visits[0];
    expect(visit.callbackStatus).toBe(200);
    expect(visit.callbackPage).toContain('Signed in to Fixture — you can close this tab');

    const { client } = await h.connect();
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'ada' }]);
    expect((await fixture.stats()).unauthorized).toBe(0);
  });

  it('keeps tokens and client secrets out of the database file: only sealed blobs, keyed by issuer', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl });
    await h.area.handlers.signIn({ id: h.ref.id });
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });

    const clients = h.db.prepare('SELECT issuer, sealed FROM oauth_clients').all() as Array<{ issuer: string; sealed: Buffer }>;
    const tokens = h.db.prepare('SELECT server_id, issuer, sealed FROM oauth_tokens').all() as Array<{
      server_id: string;
      issuer: string;
      sealed: Buffer;
    }>;
    expect(clients.map((row) => row.issuer)).toEqual([fixture.origin]);
    expect(tokens.map((row) => [row.server_id, row.issuer])).toEqual([[h.ref.id, fixture.origin]]);

    const client = JSON.parse(await h.secrets.open(clients[0].sealed)) as { client_id: string; client_secret: string };
    const record = JSON.parse(await h.secrets.open(tokens[0].sealed)) as {
      tokens: { access_token: string; refresh_token: string; id_token: string };
    };
    const secrets = [
      client.client_secret,
      record.tokens.access_token,
      record.tokens.refresh_token,
      record.tokens.id_token,
      'ada@example.com',
    ];
    expect(secrets.every((value) => typeof value === 'string' && value.length > 8)).toBe(true);
    const bytes = [h.dbPath, `${h.dbPath}-wal`]
      .filter((file) => fs.existsSync(file))
      .map((file) => fs.readFileSync(file).toString('latin1'))
      .join('');
    expect(bytes).toContain(fixture.origin); // the issuer key is plaintext, by design
    for (const secret of secrets) expect(bytes.includes(secret), 'a secret in plaintext').toBe(false);
  });

  it('a 401 without tokens shows "signed out", throws UnauthorizedError, and opens no browser', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    const error = await h.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(String(error)).toContain('Fixture needs you to sign in');
    expect(h.view()).toEqual({ status: 'signed-out' });
    expect(h.browser.opened).toEqual([]);
    const stats = await fixture.stats();
    expect([stats.registrations, stats.authorizeRequests]).toEqual([0, 0]);
  });

  it('web mode: no browser port, the page opens the URL; sign-out forgets the tokens but keeps the registration', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, browser: false });
    const start = await h.area.handlers.signIn({ id: h.ref.id });
    expect(start.openedByHost).toBe(false);
    expect(h.view()?.status).toBe('signing-in');
    await fetch(start.authorizationUrl!).catch(() => undefined); // what the page's new tab does (fetch follows the redirects)
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });

    const answer = await h.area.handlers.signOut({ id: h.ref.id });
    expect(answer.runtime.auth).toEqual({ status: 'signed-out' });
    expect(h.control.stops).toBe(1);
    expect(h.db.prepare('SELECT COUNT(*) AS n FROM oauth_tokens').get()).toEqual({ n: 0 });
    expect(h.db.prepare('SELECT COUNT(*) AS n FROM oauth_clients').get()).toEqual({ n: 1 });
  });

  it('uses the client metadata document URL as client_id where the server supports it (no registration)', async () => {
    const fixture = await startOAuthFixture(['--cimd']);
    const cimd = 'https://patchbay.example.org/oauth/client.json';
    const h = createOAuthHarness({ url: fixture.mcpUrl, clientMetadataUrl: cimd });
    const start = await h.area.handlers.signIn({ id: h.ref.id });
    expect(new URL(start.authorizationUrl!).searchParams.get('client_id')).toBe(cimd);
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });
    expect((await fixture.stats()).registrations).toBe(0);
  });

  it('uses a client the user registered in advance, and its secret, without registering or storing one', async () => {
    const fixture = await startOAuthFixture(['--any-loopback-port']);
    const registration = await fetch(`${fixture.origin}/register`, {
      method: 'POST',
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/oauth/callback'] }),
    });
    const { client_id: clientId, client_secret: clientSecret } = (await registration.json()) as {
      client_id: string;
      client_secret: string;
    };
    const h = createOAuthHarness({ url: fixture.mcpUrl, preregistered: { clientId, clientSecret } });

    const start = await h.area.handlers.signIn({ id: h.ref.id });
    expect(new URL(start.authorizationUrl!).searchParams.get('client_id')).toBe(clientId);
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });
    h.clock.advance(3_600_000);
    const { client } = await h.connect(); // refreshes first, authenticating with the secret
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'ada' }]);
    const stats = await fixture.stats();
    expect([stats.registrations, stats.refreshRequests]).toEqual([1, 1]);
    expect(h.db.prepare('SELECT COUNT(*) AS n FROM oauth_clients').get()).toEqual({ n: 0 });
  });

  it('refuses unknown servers with a clear error', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl });
    await expect(h.area.handlers.signIn({ id: 'nope' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'No remote server with id nope.',
    });
  });
});
