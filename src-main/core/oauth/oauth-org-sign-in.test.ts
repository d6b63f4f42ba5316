import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { idTokenIn } from './id-token-command';
import type { OrganizationSignIn } from './sign-in-settings';
import { startOAuthFixture, type OAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness } from './test-support/oauth-harness';

/** A command that prints `output` (and, with `exit`, fails after writing `stderr`), as an SSO helper would. */
function commandPrinting(output: string, { exit = 0, stderr = '' } = {}): string {
  const dir = tempDir('patchbay-idtoken-');
  const script = path.join(dir, 'print-id-token.cjs');
  fs.writeFileSync(
    script,
    `process.stdout.write(${JSON.stringify(output)}); process.stderr.write(${JSON.stringify(stderr)}); process.exit(${exit});`,
  );
  return `"${process.execPath}" "${script}"`;
}

async function orgFixture(): Promise<OAuthFixture> {
  const fixture = await startOAuthFixture();
  await fixture.configure({ grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], authMethods: ['client_secret_basic'] });
  return fixture;
}

function organization(fixture: OAuthFixture, idTokenCommand: string): OrganizationSignIn {
  return {
    mode: 'organization',
    clientId: 'xaa-client',
    clientSecret: 'xaa-secret',
    idp: { issuer: `${fixture.origin}/idp`, clientId: 'idp-client', idTokenCommand },
  };
}

describe('signing in through the organisation identity provider (token exchange + JWT bearer grant)', () => {
  it("exchanges the user's ID token for an ID-JAG at the IdP, redeems it at the server's authorization server, and connects as the user", async () => {
    const fixture = await orgFixture();
    const idToken = await fixture.idToken({ sub: 'grace', email: 'grace@example.com' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Wiki', signIn: organization(fixture, commandPrinting(`${idToken}\n`)) });
    const { client } = await h.connect();
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'grace' }]);
    expect(h.view()).toEqual({
      status: 'signed-in',
      issuer: fixture.origin,
      account: 'grace@example.com',
      mode: 'organization',
      tokenType: 'Bearer',
    });

    const stats = await fixture.stats();
    expect(stats).toMatchObject({ tokenExchanges: 1, jwtBearerGrants: 1, authorizeRequests: 0 });
    expect(stats.lastTokenExchange).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      subject_token: idToken,
      audience: fixture.origin,
      resource: fixture.mcpUrl,
      client_id: 'idp-client',
    });
    expect(h.browser.opened).toEqual([]);
  });

  it("uses the identity provider's token endpoint as given, without discovery, when the form names it", async () => {
    const fixture = await orgFixture();
    const settings = organization(fixture, commandPrinting(await fixture.idToken()));
    settings.idp = { ...settings.idp, issuer: `${fixture.origin}/no-metadata-here`, tokenEndpoint: `${fixture.origin}/idp/token` };
    const h = createOAuthHarness({ url: fixture.mcpUrl, signIn: settings });
    const { client } = await h.connect();
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'ada' }]);
    expect((await fixture.stats()).tokenExchanges).toBe(1);
  });

  it('a failing ID token command: its exit code and last error line on the card', async () => {
    const fixture = await orgFixture();
    const command = commandPrinting('', { exit: 3, stderr: 'warning: cache stale\nerror: not logged in to sso.example.com\n' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Wiki', signIn: organization(fixture, command) });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message:
        'Could not sign in to Wiki through your organisation: the ID token command failed (exit code 3): error: not logged in to sso.example.com.',
    });
    expect((await fixture.stats()).tokenExchanges).toBe(0);
  });

  it('the identity provider refusing the ID token: named, with its reason', async () => {
    const fixture = await orgFixture();
    const expired = await fixture.idToken({ expired: true });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Wiki', signIn: organization(fixture, commandPrinting(expired)) });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: expect.stringMatching(
        new RegExp(
          `^Could not sign in to Wiki through your organisation: your identity provider \\(${new URL(fixture.origin).host}\\) refused to vouch for you to Wiki: invalid_grant - ID token refused: .*exp.*\\.$`,
        ),
      ),
    });
    expect((await fixture.stats()).jwtBearerGrants).toBe(0);
  });

  it('needs the protected-resource metadata (it names what the identity provider vouches for)', async () => {
    const fixture = await orgFixture();
    await fixture.configure({ legacy: 'metadata' });
    const h = createOAuthHarness({
      url: fixture.mcpUrl,
      name: 'Wiki',
      signIn: organization(fixture, commandPrinting(await fixture.idToken())),
    });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: expect.stringContaining('Wiki publishes no protected-resource metadata, which sign-in through your organisation needs'),
    });
  });

  it('reads the ID token from what SSO helpers print: a bare JWT, or JSON', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2ln';
    expect(idTokenIn(` ${jwt}\n`)).toBe(jwt);
    expect(idTokenIn(JSON.stringify({ id_token: jwt, access_token: 'x' }))).toBe(jwt);
    expect(idTokenIn(JSON.stringify({ kind: 'ExecCredential', status: { token: jwt } }))).toBe(jwt);
    expect(idTokenIn('Please log in at https://sso.example.com')).toBeUndefined();
    expect(idTokenIn(JSON.stringify({ id_token: 'not a jwt' }))).toBeUndefined();
  });
});
