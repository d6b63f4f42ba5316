import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../servers/wait';
import { startOAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness, type OAuthHarness } from './test-support/oauth-harness';

async function failedSignIn(h: OAuthHarness): Promise<{ error: string | undefined; page: string | undefined }> {
  await h.area.handlers.signIn({ id: h.ref.id });
  await waitFor(() => h.view()?.status === 'signed-out', { what: 'the sign-in to fail' });
  const visit = await h.browser.visits.at(-1)!;
  return { error: h.view()?.error, page: visit.callbackPage };
}

function redirectPort(authorizationUrl: string): number {
  return Number(new URL(new URL(authorizationUrl).searchParams.get('redirect_uri')!).port);
}

describe('OAuth sign-in failures', () => {
  it('discards a code whose iss does not match the authorization server (mix-up defence): no exchange', async () => {
    const fixture = await startOAuthFixture(['--iss-mismatch']);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    const { error, page } = await failedSignIn(h);
    expect(error).toBe(
      "Could not sign in to Fixture: the answer the browser brought back did not come from Fixture's authorization server (its issuer did not match), so Patchbay discarded it.",
    );
    expect(page).toContain('Patchbay could not sign in to Fixture');
    expect((await fixture.stats()).codeExchanges).toBe(0);
    expect(h.db.prepare('SELECT COUNT(*) AS n FROM oauth_tokens').get()).toEqual({ n: 0 });
  });

  it('never shows the error_description of an error answer whose iss does not match', async () => {
    const fixture = await startOAuthFixture();
    await fixture.configure({ issMismatch: true, authorizeError: 'server_error', authorizeErrorDescription: '<b>Call +1-555 now</b>' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    const { error, page } = await failedSignIn(h);
    expect(error).toContain('did not come from Fixture');
    expect(error).not.toContain('555');
    expect(page).not.toContain('555');
  });

  it('shows an error answer from the right server, escaped on the page', async () => {
    const fixture = await startOAuthFixture();
    await fixture.configure({ authorizeError: 'invalid_scope', authorizeErrorDescription: '<script>x</script> unknown scope' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    const { error, page } = await failedSignIn(h);
    expect(error).toBe('Could not sign in to Fixture: the authorization server answered invalid_scope: <script>x</script> unknown scope.');
    expect(page).toContain('&#60;script&#62;x&#60;/script&#62; unknown scope');
    expect(page).not.toContain('<script>');

    await fixture.configure({ authorizeError: 'access_denied' });
    expect((await failedSignIn(h)).error).toBe('Could not sign in to Fixture: access was declined in the browser.');
  });

  it('refuses an authorization server on plain http that is not on this computer, before contacting it', async () => {
    const fixture = await startOAuthFixture(['--as-url', 'http://10.0.0.5:9']);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    const failure = h.area.handlers.signIn({ id: h.ref.id });
    await expect(failure).rejects.toMatchObject({
      code: 'forbidden',
      message:
        "Could not sign in to Fixture: Patchbay did not contact 10.0.0.5: Fixture's OAuth metadata pointed to plain http:// (only https is allowed, or http on this computer).",
    });
    expect(h.view()).toMatchObject({ status: 'signed-out', error: expect.stringContaining('did not contact 10.0.0.5') });
    expect(h.browser.opened).toEqual([]);
  });

  it('refuses an authorization server whose metadata does not declare PKCE S256, before registering', async () => {
    const fixture = await startOAuthFixture(['--omit-pkce']);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: expect.stringContaining('does not declare PKCE (S256) support'),
    });
    expect((await fixture.stats()).registrations).toBe(0);
  });

  it('refuses a callback with the wrong state, and a newer sign-in supersedes the pending one', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, browser: false });
    const first = await h.area.handlers.signIn({ id: h.ref.id });
    const callback = new URL(new URL(first.authorizationUrl!).searchParams.get('redirect_uri')!);
    callback.search = new URLSearchParams({ code: 'stolen', state: 'not-the-state' }).toString();
    const wrong = await fetch(callback);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('Patchbay was not expecting this sign-in');
    expect(h.view()?.status).toBe('signing-in');

    const second = await h.area.handlers.signIn({ id: h.ref.id });
    const stale = await fetch(first.authorizationUrl!); // the first tab, finished late: its state is no longer expected
    expect(stale.status).toBe(400);
    expect(h.view()?.status).toBe('signing-in');
    await fetch(second.authorizationUrl!);
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'the second sign-in' });
    expect((await fixture.stats()).codeExchanges).toBe(1);
  });

  it('gives up when the browser does not come back in time', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture', browser: false, callbackTimeoutMs: 300 });
    await h.area.handlers.signIn({ id: h.ref.id });
    await waitFor(() => h.view()?.status === 'signed-out', { what: 'the timeout' });
    expect(h.view()?.error).toBe('Could not sign in to Fixture: the browser did not come back within 0.3 s.');
  });

  it('reuses the registered redirect port; when it is taken, listens elsewhere and registers again', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl });
    const first = await h.area.handlers.signIn({ id: h.ref.id });
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in' });
    const port = redirectPort(first.authorizationUrl!);

    const again = await h.area.handlers.signIn({ id: h.ref.id });
    await waitFor(() => h.view()?.status === 'signed-in', { what: 'signed in again' });
    expect(redirectPort(again.authorizationUrl!)).toBe(port);
    expect((await fixture.stats()).registrations).toBe(1);

    const squatter = net.createServer();
    await waitFor(
      () => new Promise<boolean>((resolve) => squatter.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true))),
      {
        what: 'the old port to be free for the squatter',
      },
    );
    try {
      const moved = await h.area.handlers.signIn({ id: h.ref.id });
      await waitFor(() => h.view()?.status === 'signed-in' && h.control.starts === 3, { what: 'signed in on another port' });
      expect(redirectPort(moved.authorizationUrl!)).not.toBe(port);
      expect((await fixture.stats()).registrations).toBe(2);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('dispose rejects a pending sign-in and closes the loopback listener', async () => {
    const fixture = await startOAuthFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, browser: false });
    const start = await h.area.handlers.signIn({ id: h.ref.id });
    await h.area.dispose();
    await expect(fetch(start.authorizationUrl!)).rejects.toThrow(); // the redirect lands on a closed port
    expect(h.view()?.status).toBe('signing-in'); // nothing is published after dispose
  });
});
