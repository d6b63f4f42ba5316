import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../servers/wait';
import { startOAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness, type OAuthHarness } from './test-support/oauth-harness';

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Signs in through the browser and waits for the failure the card then shows. */
async function cardError(h: OAuthHarness): Promise<string | undefined> {
  await h.area.handlers.signIn({ id: h.ref.id });
  await waitFor(() => h.view()?.status === 'signed-out', { what: 'the sign-in to fail' });
  return h.view()?.error;
}

describe('sign-in refusals name the host and the reason', () => {
  it('an authorization server that is a file: URL is refused by name, not as "Invalid URL"', async () => {
    const fixture = await startOAuthFixture(['--as-url', 'file:///etc/passwd']);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      code: 'forbidden',
      message:
        'Could not sign in to Fixture: the authorization server that Fixture\'s resource metadata names is not an http(s) URL ("file:///etc/passwd"), so Patchbay refused it.',
    });
    expect(h.view()).toMatchObject({ status: 'signed-out', error: expect.stringContaining('file:///etc/passwd') });
    expect(h.browser.opened).toEqual([]);
  });

  it("a token endpoint's redirect to another origin is refused, naming the endpoint and where it pointed", async () => {
    const as = await startOAuthFixture();
    const fixture = await startOAuthFixture(['--as-url', as.origin]);
    await as.configure({ tokenRedirect: 'http://localhost:9/stolen' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    const asHost = new URL(as.origin).host;
    expect(await cardError(h)).toBe(
      `Could not sign in to Fixture: the token endpoint of ${asHost} redirected to another origin (localhost:9): Patchbay refused to follow it.`,
    );
    expect((await as.stats()).codeExchanges).toBe(0);
  });

  it("a redirect from a token endpoint at the server's own origin is named a redirect, not an invalid error response", async () => {
    const fixture = await startOAuthFixture();
    await fixture.configure({ tokenRedirect: 'http://localhost:9/stolen' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    expect(await cardError(h)).toBe(
      'Could not sign in to Fixture: the authorization server answered with a redirect (HTTP 307) that Patchbay does not follow.',
    );
  });

  it('an unreachable authorization server: "cannot reach" with the host and the cause, not "fetch failed"', async () => {
    const port = await closedPort();
    const fixture = await startOAuthFixture(['--as-url', `https://127.0.0.1:${port}`]);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: `Could not sign in to Fixture: Patchbay cannot reach 127.0.0.1:${port}: connection refused (ECONNREFUSED).`,
    });
  });

  it('a server on this computer cannot steer Patchbay to a link-local or private address', async () => {
    const fixture = await startOAuthFixture(['--as-url', 'https://169.254.169.254']);
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Fixture' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      code: 'forbidden',
      message:
        "Could not sign in to Fixture: Patchbay did not contact 169.254.169.254: a link-local address (where cloud metadata services live) that Fixture's OAuth metadata pointed to.",
    });

    await fixture.configure({ asUrl: 'https://10.0.0.1' });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message:
        "Could not sign in to Fixture: Patchbay did not contact 10.0.0.1: a private address that Fixture's OAuth metadata pointed to.",
    });
    expect(h.browser.opened).toEqual([]);
  });
});
