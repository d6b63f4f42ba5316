import { generateKeyPairSync } from 'node:crypto';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness, type OAuthHarness } from './test-support/oauth-harness';
import type { ApplicationSignIn } from './sign-in-settings';

const HOUR = 3_600_000;
const APP = { clientId: 'reporting-bot', clientSecret: 's3cret-value' };

async function appFixture(extra: Record<string, unknown> = {}): Promise<OAuthFixture> {
  const fixture = await startOAuthFixture();
  await fixture.configure({
    grantTypes: ['client_credentials'],
    authMethods: ['client_secret_basic', 'client_secret_post'],
    app: APP,
    ...extra,
  });
  return fixture;
}

function withSecret(secret = APP.clientSecret, issuer?: string): ApplicationSignIn {
  return { mode: 'application', clientId: APP.clientId, ...(issuer ? { issuer } : {}), credential: { kind: 'client_secret', secret } };
}

async function whoami(h: OAuthHarness): Promise<unknown> {
  const { client } = await h.connect();
  return (await client.callTool({ name: 'whoami', arguments: {} })).content;
}

describe('signing in as an application (client credentials)', () => {
  it('gets a token itself at connect, with the secret (Basic), and never opens a browser', async () => {
    const fixture = await appFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Reports', signIn: withSecret() });
    expect(await whoami(h)).toEqual([{ type: 'text', text: 'reporting-bot' }]);
    expect(h.view()).toEqual({
      status: 'signed-in',
      issuer: fixture.origin,
      account: 'reporting-bot',
      mode: 'application',
      tokenType: 'Bearer',
    });
    const stats = await fixture.stats();
    expect(stats).toMatchObject({
      clientCredentialsGrants: 1,
      lastClientAuth: 'client_secret_basic',
      authorizeRequests: 0,
      registrations: 0,
    });
    expect(stats.unauthorized).toBe(0); // the token went with the first request
    expect(h.browser.opened).toEqual([]);
  });

  it('sends the secret in the form when the authorization server only takes that', async () => {
    const fixture = await appFixture({ authMethods: ['client_secret_post'] });
    const h = createOAuthHarness({ url: fixture.mcpUrl, signIn: withSecret() });
    expect(await whoami(h)).toEqual([{ type: 'text', text: 'reporting-bot' }]);
    expect((await fixture.stats()).lastClientAuth).toBe('client_secret_post');
  });

  it.each([
    ['EC P-256 (SEC1 PEM)', 'ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'sec1'],
    ['RSA (PKCS#8 PEM)', 'RS256', () => generateKeyPairSync('rsa', { modulusLength: 2048 }), 'pkcs8'],
  ] as const)(
    'signs a private_key_jwt assertion with a %s key (%s), the algorithm taken from the key',
    async (_what, alg, keys, format) => {
      const { privateKey, publicKey } = keys();
      const fixture = await appFixture({
        authMethods: ['private_key_jwt'],
        app: { clientId: APP.clientId, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
      });
      const privateKeyPem = privateKey.export({ type: format, format: 'pem' }).toString();
      const h = createOAuthHarness({
        url: fixture.mcpUrl,
        signIn: { mode: 'application', clientId: APP.clientId, credential: { kind: 'private_key_jwt', privateKeyPem } },
      });
      expect(await whoami(h)).toEqual([{ type: 'text', text: 'reporting-bot' }]);
      expect((await fixture.stats()).lastAssertion).toEqual({ alg, iss: APP.clientId, sub: APP.clientId, aud: fixture.origin });
    },
  );

  it('a wrong secret: the reason on the card, the request fails, and the server is not asked again at once', async () => {
    const fixture = await appFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Reports', signIn: withSecret('wrong') });
    await expect(h.connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(h.view()).toEqual({
      status: 'signed-out',
      mode: 'application',
      error: 'Could not sign in to Reports as an application: the authorization server refused: wrong client credentials.',
    });
    const asked = (await fixture.stats()).clientCredentialsGrants;
    await expect(h.connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await fixture.stats()).clientCredentialsGrants).toBe(asked); // quiet for a moment after a failure

    // Sign in (the card's button) tries again at once; still refused, and says so.
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: expect.stringContaining('wrong client credentials'),
    });
    expect((await fixture.stats()).clientCredentialsGrants).toBeGreaterThan(asked);
  });

  it('gets a new token shortly before the old one expires, and after the server refuses it (401)', async () => {
    const fixture = await appFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, signIn: withSecret() });
    const auth = h.area.source.forServer(h.ref);
    const first = await auth.authProvider.token();
    h.clock.advance(HOUR - 30_000);
    const second = await auth.authProvider.token();
    expect(second).not.toBe(first);
    expect((await fixture.stats()).clientCredentialsGrants).toBe(2);

    await fixture.revoke('access');
    expect(await whoami(h)).toEqual([{ type: 'text', text: 'reporting-bot' }]); // 401, a new token, the retry succeeds
    expect((await fixture.stats()).clientCredentialsGrants).toBe(3);
    expect(h.view()?.status).toBe('signed-in');
  });

  it('sends the credentials only to the authorization server the user named', async () => {
    const fixture = await appFixture();
    const h = createOAuthHarness({
      url: fixture.mcpUrl,
      name: 'Reports',
      signIn: withSecret(APP.clientSecret, 'https://auth.example.com'),
    });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      code: 'forbidden',
      message: `Could not sign in to Reports as an application: Reports's metadata names the authorization server ${fixture.origin}, but its sign-in is set up for https://auth.example.com; Patchbay did not send the credentials there.`,
    });
    expect((await fixture.stats()).clientCredentialsGrants).toBe(0);

    const named = createOAuthHarness({ url: fixture.mcpUrl, signIn: withSecret(APP.clientSecret, `${fixture.origin}/`) });
    expect(await whoami(named)).toEqual([{ type: 'text', text: 'reporting-bot' }]); // a trailing slash is the same issuer
  });

  it('says so when the authorization server does not offer the client credentials grant', async () => {
    const fixture = await appFixture({ grantTypes: ['authorization_code'] });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Reports', signIn: withSecret() });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: `Could not sign in to Reports as an application: Reports's authorization server (${new URL(fixture.origin).host}) does not offer the client credentials grant (sign-in as an application).`,
    });
    expect((await fixture.stats()).clientCredentialsGrants).toBe(0);
  });

  it("keeps an application's token apart from a person's: switching the mode does not reuse it", async () => {
    const fixture = await appFixture({ grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] });
    const h = createOAuthHarness({ url: fixture.mcpUrl, signIn: withSecret() });
    expect(await h.area.source.forServer(h.ref).authProvider.token()).toBeDefined();
    const asPerson = h.area.source.forServer({ ...h.ref, signInMode: 'browser' });
    expect(await asPerson.authProvider.token()).toBeUndefined();
  });
});
