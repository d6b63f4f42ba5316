/**
 * What went wrong with a sign-in, said so a user can act on it. Texts from the authorization server
 * (error descriptions) are untrusted: shown only when the answer provably came from that server,
 * stripped of control characters and bounded.
 */
import { IssuerMismatchError, OAuthError, OAuthErrorCode, RegistrationRejectedError } from '@modelcontextprotocol/client';
import { DpopNonceLoopError } from './dpop-key';
import { displayText } from './account-name';
import { OAuthHopRefusedError } from './oauth-hop-guard';
import { OAuthNetworkError } from './safe-fetch';

/** The authorization server answered the browser with an error (the user declined, say). */
export class AuthorizationDeniedError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
  ) {
    super(`authorization error ${error}`);
    this.name = 'AuthorizationDeniedError';
  }
}

/** Why the sign-in to `serverName` failed, as a clause to follow "Could not sign in to X: " (no final period). */
export function describeSignInFailure(error: unknown, serverName: string): string {
  if (error instanceof OAuthHopRefusedError || error instanceof OAuthNetworkError) return trimPeriod(error.message);
  if (error instanceof IssuerMismatchError) {
    return error.kind === 'authorization_response'
      ? `the answer the browser brought back did not come from ${serverName}'s authorization server (its issuer did not match), so Patchbay discarded it`
      : `${serverName}'s authorization server describes itself under another address than the one it is reached at (issuer mismatch)`;
  }
  if (error instanceof AuthorizationDeniedError) {
    if (error.error === 'access_denied') return 'access was declined in the browser';
    const detail = error.description ? `: ${displayText(error.description, 300)}` : '';
    return `the authorization server answered ${displayText(error.error, 60)}${detail}`;
  }
  if (error instanceof RegistrationRejectedError) return `the authorization server refused to register Patchbay (HTTP ${error.status})`;
  if (error instanceof DpopNonceLoopError) return trimPeriod(error.message);
  // The SDK re-signs a token request once with the nonce the authorization server asks for (RFC 9449 §8).
  if (error instanceof OAuthError && error.code === OAuthErrorCode.UseDpopNonce)
    return `${serverName}'s authorization server kept asking for a new DPoP nonce, so Patchbay stopped retrying`;
  if (error instanceof OAuthError) {
    // The SDK reads any answer that is not a token as an error document; a redirect it did not follow
    // (to another origin, from the MCP server's own) then reads "HTTP 307: Invalid OAuth error response".
    const redirect = /^HTTP (3\d\d): Invalid OAuth error response/.exec(error.message);
    if (redirect) return `the authorization server answered with a redirect (HTTP ${redirect[1]}) that Patchbay does not follow`;
    return `the authorization server refused: ${displayText(error.message, 300)}`;
  }
  if (error instanceof Error) return trimPeriod(displayText(error.message, 300));
  return String(error);
}

/** "Could not sign in to GitHub: access was declined in the browser." */
export function signInFailureMessage(error: unknown, serverName: string): string {
  return `Could not sign in to ${serverName}: ${describeSignInFailure(error, serverName)}.`;
}

function trimPeriod(text: string): string {
  return text.replace(/\.$/, '');
}
