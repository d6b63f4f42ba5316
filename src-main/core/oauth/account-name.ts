/**
 * Who signed in, for the server card ("Signed in as ada@example.com"). Read from the claims of the
 * token response's `id_token`, or of the access token when it happens to be a JWT. The signature is
 * NOT verified: the name is shown, never trusted for any decision.
 */
import type { StoredOAuthTokens } from '@modelcontextprotocol/client';

const CLAIMS = ['email', 'preferred_username', 'name', 'sub'] as const;
const MAX_LENGTH = 100;

/** The first display claim of a JWT's payload, or undefined when `token` is not a JWT with one. */
export function jwtDisplayName(token: string | undefined): string | undefined {
  const parts = token?.split('.');
  if (!parts || parts.length !== 3) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null) return undefined;
  for (const claim of CLAIMS) {
    const value = (claims as Record<string, unknown>)[claim];
    if (typeof value === 'string' && value.trim() !== '') return displayText(value);
  }
  return undefined;
}

/** The account a token response names, if any. */
export function accountFromTokens(tokens: StoredOAuthTokens): string | undefined {
  return jwtDisplayName(tokens.id_token) ?? jwtDisplayName(tokens.access_token);
}

/** The issuer's host, the fallback account name ("Signed in at auth.example.com"). */
export function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return displayText(issuer);
  }
}

/** Untrusted text for display: no control characters, bounded length. */
export function displayText(text: string, maxLength = MAX_LENGTH): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return plain.length > maxLength ? `${plain.slice(0, maxLength - 1)}…` : plain;
}
