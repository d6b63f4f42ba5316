/**
 * Application sign-in through the whole host: the server form's fields (validated, secrets sealed,
 * never sent back), and a server that connects on its own — no Sign in, no browser.
 */
import Database from 'better-sqlite3';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerRuntime } from '@contract';
import { startTestHost } from '../../test-support/test-host';
import { tempDir } from '../../test-support/temp-dir';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE } from '../store/database';
import { startOAuthFixture } from './test-support/oauth-fixture';

type Api = ReturnType<typeof startTestHost>['api'];

async function until(api: Api, id: string, ok: (r: ServerRuntime) => boolean, what: string): Promise<ServerRuntime> {
  return waitFor(
    async () => {
      const r = (await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime;
      return r && ok(r) ? r : undefined;
    },
    { timeoutMs: 20_000, what },
  );
}

describe('signing in as an application, through the host', () => {
  it('connects by itself with a private key; the key is sealed and never shown again', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const fixture = await startOAuthFixture();
    await fixture.configure({
      grantTypes: ['client_credentials'],
      authMethods: ['private_key_jwt'],
      app: { clientId: 'bot', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    });
    const dataDir = tempDir();
    const { api, host } = startTestHost({ dataDir });
    const added = await api.addServer({
      name: 'bot server',
      transport: 'http',
      url: fixture.mcpUrl,
      signInMode: 'application',
      oauthClientId: 'bot',
      oauthClientAuth: 'private_key_jwt',
      oauthPrivateKey: pem,
    });
    expect(added.config).toMatchObject({ signInMode: 'application', oauthClientAuth: 'private_key_jwt', oauthPrivateKeySet: true });
    const ready = await until(api, added.config.id, (r) => r.status === 'ready', 'ready without a sign-in');
    expect(ready.auth).toEqual({ status: 'signed-in', issuer: fixture.origin, account: 'bot', mode: 'application', tokenType: 'Bearer' });
    expect((await fixture.stats()).authorizeRequests).toBe(0);

    const keyBody = pem.split('\n')[1];
    expect(JSON.stringify(await api.getSnapshot())).not.toContain(keyBody);
    await host.dispose();
    for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith(DATABASE_FILE))) {
      expect(fs.readFileSync(path.join(dataDir, file)).includes(keyBody), file).toBe(false);
    }
    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    expect(db.prepare('SELECT sign_in_mode, oauth_private_key IS NOT NULL AS sealed FROM servers').get()).toEqual({
      sign_in_mode: 'application',
      sealed: 1,
    });
    db.close();
  });

  it('checks the form: a client ID, a secret or a readable key; switching to a secret drops the key', async () => {
    const { api } = startTestHost();
    const base = {
      name: 'app',
      transport: 'http' as const,
      url: 'https://mcp.example.com/mcp',
      enabled: false,
      signInMode: 'application' as const,
    };
    await expect(api.addServer({ ...base })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [{ path: ['oauthClientId'], message: 'A client ID is required for this kind of sign-in' }],
    });
    await expect(api.addServer({ ...base, oauthClientId: 'bot' })).rejects.toMatchObject({
      data: [{ path: ['oauthClientSecret'], message: 'Enter the client secret' }],
    });
    await expect(
      api.addServer({ ...base, oauthClientId: 'bot', oauthClientAuth: 'private_key_jwt', oauthPrivateKey: 'ssh-ed25519 AAAA… me@laptop' }),
    ).rejects.toMatchObject({ data: [{ path: ['oauthPrivateKey'], message: 'Paste a PEM private key (-----BEGIN PRIVATE KEY----- …)' }] });
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' })
      .toString();
    await expect(
      api.addServer({ ...base, oauthClientId: 'bot', oauthClientAuth: 'private_key_jwt', oauthPrivateKey: encrypted }),
    ).rejects.toMatchObject({ data: [{ path: ['oauthPrivateKey'], message: expect.stringContaining('protected by a passphrase') }] });

    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const keyed = await api.addServer({ ...base, oauthClientId: 'bot', oauthClientAuth: 'private_key_jwt', oauthPrivateKey: pem });
    const { id, createdAt: _createdAt, ...config } = keyed.config;
    // An edit that sends no key keeps the stored one.
    const kept = await api.updateServer({ id, server: { ...config, name: 'app 2' } });
    expect(kept.config.oauthPrivateKeySet).toBe(true);
    const switched = await api.updateServer({ id, server: { ...config, oauthClientAuth: 'client_secret', oauthClientSecret: 'shh' } });
    expect(switched.config).toMatchObject({ oauthClientAuth: 'client_secret', oauthClientSecretSet: true, oauthPrivateKeySet: false });
    const toBrowser = await api.updateServer({ id, server: { ...config, signInMode: 'browser', oauthClientId: '' } });
    expect(toBrowser.config).toMatchObject({ signInMode: 'browser', oauthClientSecretSet: false, oauthPrivateKeySet: false });
  });

  it('checks organisation sign-in: the identity provider, its client and the ID token command are required', async () => {
    const { api } = startTestHost();
    await expect(
      api.addServer({
        name: 'wiki',
        transport: 'http',
        url: 'https://wiki.example.com/mcp',
        enabled: false,
        signInMode: 'organization',
        oauthClientId: 'wiki-client',
        idpIssuer: 'sso.example.com',
      }),
    ).rejects.toMatchObject({
      data: [
        { path: ['idpIssuer'], message: 'Enter an http:// or https:// URL' },
        { path: ['idpClientId'], message: "Enter Patchbay's client ID at your identity provider" },
        { path: ['idpIdTokenCommand'], message: 'Enter the command that prints your ID token' },
      ],
    });
  });
});
