/**
 * DPoP (RFC 9449, SEP-1932): a server's proof-of-possession key and what decides whether it is used.
 *
 * The key pair is made on the first sign-in to an authorization server that offers DPoP and kept
 * with the tokens it binds (sealed in the token record, like the tokens themselves): the access
 * token is bound to its thumbprint (`cnf.jkt`), so it is only worth keeping for as long as they are.
 * The proofs themselves (htm, htu, iat, a fresh jti, ath for resource requests, the server's nonce)
 * are the SDK's `DpopSession`; the transport's fetch gets them through `withDpop`.
 */
import {
  DPOP_SUPPORTED_ALGS,
  DpopSession,
  generateDpopKeyPair,
  withDpop,
  type DpopKeyPair,
  type FetchLike,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, importJWK, type JWK } from 'jose';

/** The signing algorithm Patchbay uses: the one every DPoP server supports in practice. */
const DPOP_ALG = 'ES256';

/** A key pair as it is stored (sealed): the private JWK, which carries the public part too. */
export interface StoredDpopKey {
  alg: typeof DPOP_ALG;
  jwk: JWK;
}

/** Whether an authorization server's metadata offers DPoP with an algorithm Patchbay signs with. */
export function offersDpop(metadata: object | undefined): boolean {
  const algs = (metadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(DPOP_ALG) && (DPOP_SUPPORTED_ALGS as readonly string[]).includes(DPOP_ALG);
}

/** Whether a token response is sender-constrained (`token_type: DPoP`, RFC 9449 §5). */
export function isDpopBound(tokens: StoredOAuthTokens | undefined): boolean {
  return tokens?.token_type?.toLowerCase() === 'dpop';
}

/** A new key pair, exportable so that it can be sealed and kept with the tokens. */
export async function newDpopKey(): Promise<{ stored: StoredDpopKey; pair: DpopKeyPair }> {
  const pair = await generateDpopKeyPair({ alg: DPOP_ALG, extractable: true });
  return { stored: { alg: DPOP_ALG, jwk: await exportJWK(pair.privateKey) }, pair };
}

/** A stored key pair, opened for signing (the private key is not extractable once imported). */
export async function openDpopKey(stored: StoredDpopKey): Promise<DpopKeyPair> {
  const { kty, crv, x, y } = stored.jwk;
  const publicJwk: JWK = { kty, crv, x, y };
  const privateKey = await importJWK(stored.jwk, stored.alg, { extractable: false });
  const publicKey = await importJWK(publicJwk, stored.alg);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new Error('The stored DPoP key is not a key pair');
  return { privateKey, publicKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'), alg: stored.alg };
}

/** A session over a key pair (its nonce memory lasts as long as the session). */
export function dpopSession(pair: DpopKeyPair): Promise<DpopSession> {
  return DpopSession.create({ keyPair: pair });
}

/** The server kept answering `use_dpop_nonce` after it was given the nonce it asked for. */
export class DpopNonceLoopError extends Error {
  override readonly name = 'DpopNonceLoopError';
  constructor(who: string) {
    super(`${who} kept asking for a new DPoP nonce, so Patchbay stopped retrying`);
  }
}

/** How many further rounds (each a signed retry with the newest nonce) a request gets after the SDK's own retry. */
const MAX_NONCE_RETRIES = 2;

/**
 * The fetch a DPoP-bound connection goes through: `DPoP <token>` plus a fresh proof on every request
 * (the SDK's `withDpop`, which re-signs once with a nonce the server asks for), a bounded number of
 * further rounds when the server keeps asking, then a named error instead of a silent loop.
 * Requests pass through untouched while the token is a Bearer token.
 */
export function dpopFetch(
  next: FetchLike,
  session: () => Promise<DpopSession | undefined>,
  token: () => Promise<string | undefined>,
  serverName: string,
): FetchLike {
  const signed = withDpop(session, token)(next);
  return async (input, init) => {
    for (let round = 0; ; round++) {
      const response = await signed(input, init);
      const challenged = response.status === 401 && /use_dpop_nonce/i.test(response.headers.get('www-authenticate') ?? '');
      if (!challenged) return response;
      await response.body?.cancel().catch(() => undefined);
      // withDpop already retried once with the nonce it was given (and remembered the newest one).
      if (round >= MAX_NONCE_RETRIES) throw new DpopNonceLoopError(serverName);
    }
  };
}
