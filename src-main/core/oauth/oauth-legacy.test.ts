import { describe, expect, it } from 'vitest';
import { waitFor } from '../servers/wait';
import { startOAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness, type OAuthHarness } from './test-support/oauth-harness';

const HOUR = 3_600_000;

async function signIn(h: OAuthHarness): Promise<URL> {
  const start = await h.area.handlers.signIn({ id: h.ref.id });
  await waitFor(() => h.view()?.status !== 'signing-in', { what: 'the sign-in to end' });
  return new URL(start.authorizationUrl!);
}

describe('servers that sign in the 2025-03-26 way (no protected-resource metadata)', () => {
  it("finds the authorization server's metadata at the server's origin, whose issuer may have a path there", async () => {
    const fixture = await startOAuthFixture(['--legacy', 'metadata']);
    await fixture.configure({ metadataIssuer: `${fixture.origin}/oauth` });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Legacy' });
    const url = await signIn(h);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBeNull(); // no resource metadata: no resource indicator either
    expect(h.view()).toEqual({
      status: 'signed-in',
      issuer: `${fixture.origin}/oauth`,
      account: 'ada@example.com',
      legacy: true,
      tokenType: 'Bearer',
    });
    const { client } = await h.connect();
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'ada' }]);

    // A refresh runs discovery afresh under the same rule (the issuer with a path is not a mismatch).
    h.clock.advance(HOUR - 30_000);
    const auth = h.area.source.forServer(h.ref);
    expect(await auth.authProvider.token()).toBeDefined();
    expect((await fixture.stats()).refreshRequests).toBe(1);
    expect(h.view()).toMatchObject({ status: 'signed-in', legacy: true });
  });

  it('without any metadata, uses /authorize, /token and /register at the server origin, still with PKCE S256', async () => {
    const fixture = await startOAuthFixture(['--legacy', 'fallback']);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Legacy' });
    const url = await signIn(h);
    expect(`${url.origin}${url.pathname}`).toBe(`${fixture.origin}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(h.view()).toEqual({
      status: 'signed-in',
      issuer: `${fixture.origin}/`,
      account: 'ada@example.com',
      legacy: true,
      tokenType: 'Bearer',
    });
    expect(await fixture.stats()).toMatchObject({ registrations: 1, codeExchanges: 1 });
  });

  it("refuses metadata at the server's origin that names an issuer on another origin", async () => {
    const fixture = await startOAuthFixture(['--legacy', 'metadata']);
    await fixture.configure({ metadataIssuer: 'https://auth.example.com/oauth' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Legacy' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message:
        "Could not sign in to Legacy: Legacy's authorization server describes itself under another address than the one it is reached at (issuer mismatch).",
    });
    expect((await fixture.stats()).registrations).toBe(0);
  });

  it('keeps the issuer check exact for a server with resource metadata (the relaxation is for the legacy path only)', async () => {
    const fixture = await startOAuthFixture();
    await fixture.configure({ metadataIssuer: `${fixture.origin}/oauth` });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Modern' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({ message: expect.stringContaining('(issuer mismatch)') });
  });

  it('refuses legacy metadata that lists PKCE methods without S256; metadata silent on PKCE gets S256', async () => {
    const fixture = await startOAuthFixture(['--legacy', 'metadata']);
    await fixture.configure({ pkceMethods: ['plain'] });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Legacy' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: expect.stringContaining('does not declare PKCE (S256) support'),
    });
    expect((await fixture.stats()).registrations).toBe(0);

    await fixture.configure({ omitPkce: true });
    const url = await signIn(h);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(h.view()).toMatchObject({ status: 'signed-in', legacy: true });
  });
});
