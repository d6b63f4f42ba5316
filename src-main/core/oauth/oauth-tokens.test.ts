import { InsufficientScopeError, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../servers/wait';
import { startOAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness, type OAuthHarness } from './test-support/oauth-harness';

async function signedIn(h: OAuthHarness): Promise<void> {
  await h.area.handlers.signIn({ id: h.ref.id });
  await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });
}

const HOUR = 3_600_000;

describe('OAuth tokens over time', () => {
  it('refreshes a token about to expire exactly once, however many requests ask at the same time', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl });
    await signedIn(h);
    const auth = h.area.source.forServer(h.ref);
    const first = await auth.authProvider.token();

    h.clock.advance(HOUR - 30_000); // 30 s left: inside the one-minute margin
    const tokens = await Promise.all(Array.from({ length: 8 }, () => auth.authProvider.token()));
    expect((await fixture.stats()).refreshRequests).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    expect(h.view()).toMatchObject({ status: 'signed-in', account: 'ada@example.com' });

    await auth.authProvider.token(); // fresh now: no further refresh
    const { client } = await h.connect();
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'ada' }]);
    expect((await fixture.stats()).refreshRequests).toBe(1);
  });

  it('a refused refresh shows "expired" (needs sign-in again) and never opens a browser', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl });
    await signedIn(h);
    await fixture.configure({ refreshFails: true });
    h.clock.advance(HOUR - 30_000);

    const auth = h.area.source.forServer(h.ref);
    expect(await auth.authProvider.token()).toBeUndefined();
    expect(h.view()).toMatchObject({ status: 'expired', issuer: fixture.origin });
    const error = await h.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(h.view()?.status).toBe('expired');
    expect(h.browser.opened).toHaveLength(1); // only the sign-in itself
    expect((await fixture.stats()).authorizeRequests).toBe(1);
  });

  it('a refresh never registers a client: without its registration the sign-in just expires', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await signedIn(h);
    h.db.prepare('DELETE FROM oauth_clients').run();
    h.clock.advance(HOUR - 30_000);
    const auth = h.area.source.forServer(h.ref);
    expect(await auth.authProvider.token()).toBeDefined(); // not expired yet: the old token still goes out
    expect(h.view()).toMatchObject({
      status: 'expired',
      error: "Could not renew the sign-in to Fixture: Patchbay is no longer registered with Fixture's authorization server.",
    });
    const stats = await fixture.stats();
    expect([stats.registrations, stats.refreshRequests]).toEqual([1, 0]);
  });

  it('a 401 for a revoked access token refreshes, and the transport retries successfully', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl });
    await signedIn(h);
    await fixture.revoke('access');

    const { client } = await h.connect();
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'ada' }]);
    const stats = await fixture.stats();
    expect([stats.unauthorized, stats.refreshRequests]).toEqual([1, 1]);
    expect(h.view()?.status).toBe('signed-in');
  });

  it('a 401 when the refresh token was revoked too: "expired" and UnauthorizedError', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await signedIn(h);
    await fixture.revoke();
    const error = await h.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(h.view()?.status).toBe('expired');
    expect(h.db.prepare('SELECT COUNT(*) AS n FROM oauth_tokens').get()).toEqual({ n: 0 });
  });

  it('step-up: a 403 insufficient_scope asks the user to sign in again, and that sign-in requests the union scope', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await signedIn(h);
    expect((await fixture.stats()).lastAuthorizeScope).toBe('mcp:read');

    const { client, auth } = await h.connect();
    const error = await client.callTool({ name: 'admin_action', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientScopeError);
    auth.observeError(error); // what the remote transport does with every error a send threw
    expect(h.view()).toMatchObject({
      status: 'signed-out',
      error: 'Fixture needs more permissions (scope mcp:read mcp:admin): sign in again.',
    });
    expect(h.browser.opened).toHaveLength(1);

    const start = await h.area.handlers.signIn({ id: h.ref.id });
    expect(new URL(start.authorizationUrl!).searchParams.get('scope')).toBe('mcp:read mcp:admin');
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in again' });
    const second = await h.connect();
    expect((await second.client.callTool({ name: 'admin_action', arguments: {} })).content).toEqual([{ type: 'text', text: 'admin done' }]);
    expect((await fixture.stats()).registrations).toBe(1);
  });
});
