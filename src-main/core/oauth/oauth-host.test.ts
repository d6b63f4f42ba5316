/**
 * OAuth through the whole host: the fleet connects a protected remote server, the card asks for a
 * sign-in, Sign in (the contract's signIn) completes through a headless browser and the loopback
 * listener, the server turns Ready; a restarted Patchbay on the same data directory is still signed
 * in; removing a server mid-sign-in ends that sign-in quietly.
 */
import { describe, expect, it } from 'vitest';
import type { ServerRuntime } from '@contract';
import { startTestHost } from '../../test-support/test-host';
import { tempDir } from '../../test-support/temp-dir';
import { waitFor } from '../servers/wait';
import { createHeadlessBrowser, visitAuthorizationUrl } from './headless-browser';
import { startOAuthFixture } from './test-support/oauth-fixture';

type Api = ReturnType<typeof startTestHost>['api'];

async function runtimeOf(api: Api, id: string): Promise<ServerRuntime | undefined> {
  return (await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime;
}

async function until(api: Api, id: string, ok: (r: ServerRuntime) => boolean, what: string): Promise<ServerRuntime> {
  return waitFor(
    async () => {
      const r = await runtimeOf(api, id);
      return r && ok(r) ? r : undefined;
    },
    { timeoutMs: 20_000, what },
  );
}

describe('OAuth through the host', () => {
  it('asks for a sign-in, connects after it, and stays signed in across a restart of Patchbay', async () => {
    const fixture = await startOAuthFixture();
    const dataDir = tempDir();
    const browser = createHeadlessBrowser();
    const first = startTestHost({ dataDir, openExternal: (url) => browser.open(url) });
    const added = await first.api.addServer({ name: 'protected', transport: 'http', url: fixture.mcpUrl });
    const id = added.config.id;

    const needs = await until(first.api, id, (r) => r.status === 'error', 'the sign-in request');
    expect(needs.reason).toBe(`Server "protected" needs you to sign in (${new URL(fixture.mcpUrl).host}).`);
    expect(needs.auth).toMatchObject({ status: 'signed-out' });
    expect(browser.opened).toEqual([]); // nobody clicked Sign in yet

    const start = await first.api.signIn({ id });
    expect(start.openedByHost).toBe(true);
    const ready = await until(first.api, id, (r) => r.status === 'ready', 'ready after sign-in');
    expect(ready.auth).toEqual({ status: 'signed-in', issuer: fixture.origin, account: 'ada@example.com', tokenType: 'Bearer' });
    expect(JSON.stringify(await first.api.runTool({ serverId: id, tool: 'whoami', args: {} }))).toContain('ada');
    await first.host.dispose();

    const second = startTestHost({ dataDir, openExternal: (url) => browser.open(url) });
    void second.host.startServers();
    const again = await until(second.api, id, (r) => r.status === 'ready', 'ready after a restart, without signing in');
    expect(again.auth).toMatchObject({ status: 'signed-in', account: 'ada@example.com' });
    expect(browser.opened).toHaveLength(1);
    expect((await fixture.stats()).codeExchanges).toBe(1);

    const out = await second.api.signOut({ id });
    expect(out.runtime).toMatchObject({ status: 'stopped', auth: { status: 'signed-out' } });
  });

  it('removing a server while its sign-in waits for the browser ends the sign-in quietly', async () => {
    const fixture = await startOAuthFixture();
    const opened: string[] = [];
    // A browser the user never finishes in.
    const t = startTestHost({ openExternal: async (url) => void opened.push(url) });
    const added = await t.api.addServer({ name: 'abandoned', transport: 'http', url: fixture.mcpUrl });
    const id = added.config.id;
    await until(t.api, id, (r) => r.status === 'error', 'the sign-in request');
    await t.api.signIn({ id });
    expect(opened).toHaveLength(1);
    expect((await runtimeOf(t.api, id))?.auth?.status).toBe('signing-in');

    await t.api.removeServer({ id });
    const since = t.events.length;
    // The user finishing in the browser now (a real code, a real redirect) completes nothing.
    const late = await visitAuthorizationUrl(opened[0]);
    expect(late.callbackStatus ?? late.error).not.toBe(200);
    expect(t.events.slice(since).filter((e) => e.name === 'serverUpdated')).toEqual([]);
    expect((await t.api.getSnapshot()).servers).toEqual([]);
    expect((await fixture.stats()).codeExchanges).toBe(0);
  });
});
