/**
 * An application's private key for `private_key_jwt` client authentication (RFC 7523): any PEM
 * private key Node can read (PKCS#8, or the older PKCS#1 / SEC1 forms), converted to the PKCS#8 the
 * SDK's JWT signer (jose) imports, with the signing algorithm that fits the key.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';

/** The algorithms Patchbay signs client assertions with, by key type. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

export interface SigningKey {
  /** The key as PKCS#8 PEM. */
  pkcs8: string;
  alg: SigningAlgorithm;
}

const CURVES: Record<string, SigningAlgorithm> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** Reads a PEM private key; throws an Error whose message says what is wrong with it, for the form. */
export function signingKeyOf(pem: string): SigningKey {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    throw new Error('Paste a PEM private key (-----BEGIN PRIVATE KEY----- …)');
  }
  if (/ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(pem)) {
    throw new Error('This key is protected by a passphrase: export it without one (Patchbay stores it encrypted)');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new Error('This is not a private key Patchbay can read (PEM: PKCS#8, PKCS#1 or SEC1)');
  }
  return { pkcs8: key.export({ type: 'pkcs8', format: 'pem' }).toString(), alg: algorithmOf(key) };
}

function algorithmOf(key: KeyObject): SigningAlgorithm {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ed25519') return 'EdDSA';
  const curve = type === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined;
  const alg = curve ? CURVES[curve] : undefined;
  if (alg) return alg;
  throw new Error(`Patchbay signs with RSA, EC (P-256, P-384, P-521) or Ed25519 keys, not ${curve ?? type ?? 'this kind of'} keys`);
}
