/**
 * "As an application" with workload identity (SEP-1933): the token the workload's platform issued,
 * printed by a real command at each attempt, exchanged with the JWT bearer grant (RFC 7523) at the
 * fixture's authorization server — no secret, no browser; refusals in words, without falling back
 * to another grant or asking again at every request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import type { ApplicationSignIn } from './sign-in-settings';
import { startOAuthFixture, type OAuthFixture } from './test-support/oauth-fixture';
import { createOAuthHarness } from './test-support/oauth-harness';

const WORKLOAD = { clientId: 'ci-reporter' };

/** A command that prints `output` (and, with `exit`, fails), as a platform's token helper would. */
function commandPrinting(output: string, { exit = 0 } = {}): string {
  const script = path.join(tempDir('patchbay-workload-'), 'print-token.cjs');
  fs.writeFileSync(script, `process.stdout.write(${JSON.stringify(output)}); process.exit(${exit});`);
  return `"${process.execPath}" "${script}"`;
}

async function workloadFixture(): Promise<OAuthFixture> {
  const fixture = await startOAuthFixture();
  await fixture.configure({ grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], authMethods: ['none'], workload: WORKLOAD });
  return fixture;
}

function workload(command: string): ApplicationSignIn {
  return { mode: 'application', clientId: WORKLOAD.clientId, credential: { kind: 'workload_jwt', command } };
}

describe('signing in as an application with workload identity (JWT bearer grant)', () => {
  it("exchanges the workload's token for an access token at connect, and shows the workload as the account", async () => {
    const fixture = await workloadFixture();
    const token = await fixture.workloadToken({ sub: 'system:serviceaccount:ci:reporter' });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Reports', signIn: workload(commandPrinting(`${token}\n`)) });
    const { client } = await h.connect();
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([
      { type: 'text', text: 'system:serviceaccount:ci:reporter' },
    ]);
    expect(h.view()).toMatchObject({ status: 'signed-in', mode: 'application', account: 'system:serviceaccount:ci:reporter' });
    expect(await fixture.stats()).toMatchObject({ jwtBearerGrants: 1, clientCredentialsGrants: 0, authorizeRequests: 0 });
    expect(h.browser.opened).toEqual([]);
  });

  it('an expired workload token: the reason on the card, no other grant tried, and quiet after the failure', async () => {
    const fixture = await workloadFixture();
    const expired = await fixture.workloadToken({ expired: true });
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Reports', signIn: workload(commandPrinting(expired)) });
    await expect(h.connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(h.view()).toMatchObject({
      status: 'signed-out',
      mode: 'application',
      error: expect.stringMatching(/^Could not sign in to Reports as an application: .*the workload token was refused: .*"exp" claim/),
    });
    // The SDK's auth() asks once more on invalid_grant (with a freshly printed token), as for every grant.
    const asked = (await fixture.stats()).jwtBearerGrants;
    expect(asked).toBeLessThanOrEqual(2);
    expect((await fixture.stats()).clientCredentialsGrants).toBe(0);
    await expect(h.connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await fixture.stats()).jwtBearerGrants).toBe(asked); // quiet for a moment after a failure
  });

  it('a token command that fails: its exit code in the message, and nothing sent to the authorization server', async () => {
    const fixture = await workloadFixture();
    const h = createOAuthHarness({ url: fixture.mcpUrl, name: 'Reports', signIn: workload(commandPrinting('', { exit: 4 })) });
    await expect(h.area.handlers.signIn({ id: h.ref.id })).rejects.toMatchObject({
      message: expect.stringContaining('the workload token command failed (exit code 4)'),
    });
    expect((await fixture.stats()).jwtBearerGrants).toBe(0);
  });
});
