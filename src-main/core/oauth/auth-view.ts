/** Pieces of the server card's sign-in state (`AuthView`) that several parts of the area build. */
import type { AuthView } from '@contract';
import { issuerHost } from './account-name';
import { isDpopBound } from './dpop-key';
import type { IssuedTokenRecord } from './oauth-store';

/** "Signed in as ada@example.com" (or, when the tokens name nobody, "at auth.example.com"). */
export function signedInView(record: IssuedTokenRecord): AuthView {
  return {
    status: 'signed-in',
    issuer: record.issuer,
    account: record.account ?? issuerHost(record.issuer),
    ...(record.legacy ? { legacy: true } : {}),
    tokenType: isDpopBound(record.tokens) ? 'DPoP' : 'Bearer',
  };
}

/** "Needs sign-in again" for tokens that stopped working. */
export function expiredView(record: IssuedTokenRecord): AuthView {
  return {
    status: 'expired',
    issuer: record.issuer,
    ...(record.account ? { account: record.account } : {}),
    ...(record.legacy ? { legacy: true } : {}),
  };
}

/** A scope from a server's challenge, for display: RFC 6749 scope-token characters only, bounded. */
export function scopeText(scope: string | undefined): string {
  const tokens = (scope ?? '').split(' ').filter((token) => /^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(token));
  const text = tokens.slice(0, 10).join(' ');
  return text === '' ? 'unknown' : text;
}
