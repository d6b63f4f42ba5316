/**
 * DPoP (RFC 9449) as the host uses it: the server's key kept sealed with its tokens, the proofs the
 * connection's fetch adds (checked with jose against a local resource/authorization server on
 * 127.0.0.1, as a real one checks them), its nonce honoured, and a nonce loop ended with a named error.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { KeyFileSecretBox } from '../secrets/key-file-secret-box';
import { openDatabase } from '../store/database';
import { offersDpop } from './dpop-key';
import { OAuthCredentialStore } from './oauth-store';
import { ServerCredentials } from './server-credentials';
import { signedInView } from './auth-view';
import { describeSignInFailure } from './sign-in-errors';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/client';

const URL_ = 'http://127.0.0.1/mcp';

function credentialsSetup() {
  const dir = tempDir('patchbay-dpop-');
  const { db } = openDatabase(dir);
  onTestFinished(() => {
    db.close();
  });
  db.prepare(
    `INSERT INTO servers (id, name, name_key, command, args, cwd, enabled, init_timeout_ms, request_timeout_ms, auto_restart, position, created_at, updated_at)
     VALUES ('s', 's', 's', '', '[]', '', 1, 1000, 1000, 1, 0, '', '')`,
  ).run();
  const now = () => new Date();
  const store = new OAuthCredentialStore({ db, secrets: new KeyFileSecretBox(dir), now });
  const open = () => new ServerCredentials(store, 's', () => URL_, now);
  return { db, open };
}

interface Seen {
  authorization: string | undefined;
  proof: string | undefined;
  claims?: Record<string, unknown>;
  jkt?: string;
}

/** A resource server that verifies DPoP proofs the way RFC 9449 §4.3 and §7 say, optionally demanding nonces. */
async function resourceServer(options: { nonce?: 'once' | 'always' } = {}) {
  const seen: Seen[] = [];
  let nonces = 0;
  const server = http.createServer((req, res) => {
    void (async () => {
      const proof = req.headers.dpop as string | undefined;
      const entry: Seen = { authorization: req.headers.authorization, proof };
      seen.push(entry);
      if (proof) {
        const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'] });
        entry.claims = payload;
        entry.jkt = await calculateJwkThumbprint(protectedHeader.jwk as JWK, 'sha256');
      }
      const expected = `n-${nonces}`;
      const wantsNonce = options.nonce === 'always' || (options.nonce === 'once' && entry.claims?.nonce !== expected);
      if (proof && wantsNonce) {
        nonces++;
        res.writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': `n-${nonces}` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    })().catch((error: unknown) => res.writeHead(400).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?x=1`, seen };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The connection's fetch for the server, as oauth-session.ts builds it (without the hop guard). */
function connectionFetch(credentials: ServerCredentials) {
  return credentials.fetchWithDpop(fetch, 'Reports');
}

describe('DPoP', () => {
  it('is used only where the authorization server offers an algorithm Patchbay signs with', () => {
    expect(offersDpop({ dpop_signing_alg_values_supported: ['ES256', 'RS256'] })).toBe(true);
    expect(offersDpop({ dpop_signing_alg_values_supported: ['RS256'] })).toBe(false);
    expect(offersDpop({ issuer: 'https://as' })).toBe(false);
    expect(offersDpop(undefined)).toBe(false);
  });

  it('signs every resource request with a fresh proof (htm, htu, iat, jti, ath) under the DPoP scheme', async () => {
    const { open } = credentialsSetup();
    const credentials = open();
    const session = await credentials.dpopSession(); // the token request's proof would come from here
    await credentials.save('https://as', { access_token: 'at-1', token_type: 'DPoP' });
    const rs = await resourceServer();
    const fetchFn = connectionFetch(credentials);
    for (const method of ['POST', 'GET'])
      expect((await fetchFn(rs.url, { method, headers: { Authorization: 'Bearer at-1' } })).status).toBe(200);

    expect(rs.seen).toHaveLength(2);
    const [first, second] = rs.seen;
    for (const [entry, method] of [
      [first, 'POST'],
      [second, 'GET'],
    ] as const) {
      expect(entry.authorization).toBe('DPoP at-1');
      expect(decodeProtectedHeader(entry.proof!).typ).toBe('dpop+jwt');
      expect(entry.claims).toMatchObject({ htm: method, htu: rs.url.replace('?x=1', ''), ath: sha256('at-1') });
      expect(Math.abs(Number(entry.claims!.iat) - Date.now() / 1000)).toBeLessThan(60);
      expect(entry.jkt).toBe(session.thumbprint);
    }
    expect(first.claims!.jti).not.toBe(second.claims!.jti);
    expect(signedInView((await credentials.latest())!).tokenType).toBe('DPoP');
  });

  it('keeps the key sealed with the tokens it binds: the next start signs with the same key; sign-out drops it', async () => {
    const { db, open } = credentialsSetup();
    const first = open();
    const thumbprint = (await first.dpopSession()).thumbprint;
    await first.save('https://as', { access_token: 'at-1', token_type: 'DPoP' });
    const sealed = db.prepare('SELECT sealed FROM oauth_tokens').get() as { sealed: Buffer };
    expect(sealed.sealed.toString('latin1')).not.toMatch(/"d"|at-1/); // nothing readable at rest

    const restarted = open();
    expect((await restarted.boundDpopSession())?.thumbprint).toBe(thumbprint);
    restarted.forget();
    expect(await restarted.boundDpopSession()).toBeUndefined();
    expect((await restarted.dpopSession()).thumbprint).not.toBe(thumbprint);
  });

  it('leaves Bearer tokens as they are: no proof, no DPoP scheme', async () => {
    const { open } = credentialsSetup();
    const credentials = open();
    await credentials.save('https://as', { access_token: 'plain', token_type: 'Bearer' });
    const rs = await resourceServer({ nonce: 'always' });
    const fetchFn = connectionFetch(credentials);
    expect((await fetchFn(rs.url, { headers: { Authorization: 'Bearer plain' } })).status).toBe(200);
    expect(rs.seen).toEqual([{ authorization: 'Bearer plain', proof: undefined }]);
    expect(signedInView((await credentials.latest())!).tokenType).toBe('Bearer');
  });

  it("honours the server's nonce: the request is signed again with it", async () => {
    const { open } = credentialsSetup();
    const credentials = open();
    await credentials.dpopSession();
    await credentials.save('https://as', { access_token: 'at-2', token_type: 'DPoP' });
    const rs = await resourceServer({ nonce: 'once' });
    const fetchFn = connectionFetch(credentials);
    expect((await fetchFn(rs.url, { method: 'POST' })).status).toBe(200);
    expect(rs.seen.map((s) => s.claims?.nonce)).toEqual([undefined, 'n-1']);
    // The nonce is remembered: the next request carries it from the start.
    expect((await fetchFn(rs.url, { method: 'POST' })).status).toBe(200);
    expect(rs.seen.at(-1)?.claims?.nonce).toBe('n-1');
    expect(rs.seen).toHaveLength(3);
  });

  it('stops a server that keeps asking for a new nonce after a bounded number of tries, with a named error', async () => {
    const { open } = credentialsSetup();
    const credentials = open();
    await credentials.dpopSession();
    await credentials.save('https://as', { access_token: 'at-3', token_type: 'DPoP' });
    const rs = await resourceServer({ nonce: 'always' });
    const fetchFn = connectionFetch(credentials);
    await expect(fetchFn(rs.url, { method: 'POST' })).rejects.toThrow('Server "Reports" kept asking for a new DPoP nonce');
    expect(rs.seen.length).toBeLessThanOrEqual(6);
    // Each try is a new proof (a new jti), never a replay.
    expect(new Set(rs.seen.map((s) => s.claims?.jti)).size).toBe(rs.seen.length);
  });

  it('names an authorization server that keeps asking for a nonce at its token endpoint (the SDK re-signs once)', () => {
    const refused = new OAuthError(OAuthErrorCode.UseDpopNonce, 'Authorization server requires nonce in DPoP proof');
    expect(describeSignInFailure(refused, 'Reports')).toBe(
      "Reports's authorization server kept asking for a new DPoP nonce, so Patchbay stopped retrying",
    );
  });
});
