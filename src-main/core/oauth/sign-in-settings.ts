/**
 * How one remote server signs in, with its secrets opened: what the OAuth area asks the host for
 * (`OAuthAreaOptions.signInSettings`) when a sign-in needs them, and never keeps longer than that.
 */
import type { StoredServer } from '../server-config/server-config-repository';
import type { PreregisteredClient } from './oauth-provider';

/** As you, in the browser; optionally with a client registered in advance. */
export interface BrowserSignIn {
  mode: 'browser';
  client?: PreregisteredClient;
}

/**
 * As an application: the client credentials grant with a secret or a private key, or workload identity
 * — the JWT bearer grant with the token a command prints (the client secret then optional).
 */
export interface ApplicationSignIn {
  mode: 'application';
  clientId: string;
  /** The only authorization server (issuer) the credentials may go to; undefined: the one the server names. */
  issuer?: string;
  credential:
    | { kind: 'client_secret'; secret: string }
    | { kind: 'private_key_jwt'; privateKeyPem: string }
    | { kind: 'workload_jwt'; command: string; secret?: string };
}

/** As you, through your organisation's identity provider (ID token → ID-JAG → access token). */
export interface OrganizationSignIn {
  mode: 'organization';
  /** Patchbay's client at the MCP server's authorization server. */
  clientId: string;
  clientSecret: string;
  issuer?: string;
  idp: {
    /** The identity provider's issuer URL (its token endpoint is discovered from it). */
    issuer: string;
    /** Its token endpoint, given outright (no discovery). */
    tokenEndpoint?: string;
    clientId: string;
    clientSecret?: string;
    /** A command that prints the user's current ID token. */
    idTokenCommand: string;
  };
}

export type SignInSettings = BrowserSignIn | ApplicationSignIn | OrganizationSignIn;
/** The two ways of signing in without a browser. */
export type AutomaticSignIn = ApplicationSignIn | OrganizationSignIn;

/** The stored columns a server's sign-in is made of. */
export type StoredSignIn = Pick<
  StoredServer,
  | 'signInMode'
  | 'oauthClientId'
  | 'oauthClientSecret'
  | 'oauthClientAuth'
  | 'oauthPrivateKey'
  | 'oauthAssertionCommand'
  | 'oauthIssuer'
  | 'idpIssuer'
  | 'idpTokenEndpoint'
  | 'idpClientId'
  | 'idpClientSecret'
  | 'idpIdTokenCommand'
>;

/** Opens the sealed parts of a stored sign-in. */
export async function openSignInSettings(stored: StoredSignIn, open: (sealed: Buffer) => Promise<string>): Promise<SignInSettings> {
  const opened = async (sealed: Buffer | undefined) => (sealed ? await open(sealed) : undefined);
  const clientSecret = await opened(stored.oauthClientSecret);
  const issuer = stored.oauthIssuer || undefined;
  if (stored.signInMode === 'application') {
    const privateKeyPem = await opened(stored.oauthPrivateKey);
    return {
      mode: 'application',
      clientId: stored.oauthClientId,
      ...(issuer ? { issuer } : {}),
      credential:
        stored.oauthClientAuth === 'private_key_jwt'
          ? { kind: 'private_key_jwt', privateKeyPem: privateKeyPem ?? '' }
          : stored.oauthClientAuth === 'workload_jwt'
            ? { kind: 'workload_jwt', command: stored.oauthAssertionCommand, ...(clientSecret ? { secret: clientSecret } : {}) }
            : { kind: 'client_secret', secret: clientSecret ?? '' },
    };
  }
  if (stored.signInMode === 'organization') {
    const idpSecret = await opened(stored.idpClientSecret);
    return {
      mode: 'organization',
      clientId: stored.oauthClientId,
      clientSecret: clientSecret ?? '',
      ...(issuer ? { issuer } : {}),
      idp: {
        issuer: stored.idpIssuer,
        ...(stored.idpTokenEndpoint ? { tokenEndpoint: stored.idpTokenEndpoint } : {}),
        clientId: stored.idpClientId,
        ...(idpSecret ? { clientSecret: idpSecret } : {}),
        idTokenCommand: stored.idpIdTokenCommand,
      },
    };
  }
  if (!stored.oauthClientId) return { mode: 'browser' };
  return { mode: 'browser', client: { clientId: stored.oauthClientId, ...(clientSecret ? { clientSecret } : {}) } };
}

/** How each stored server signs in, its secrets opened (a server that is gone signs in in the browser). */
export function storedSignInSettings(
  stored: (serverId: string) => StoredSignIn | undefined,
  open: (sealed: Buffer) => Promise<string>,
): (serverId: string) => Promise<SignInSettings> {
  return async (serverId) => {
    const server = stored(serverId);
    return server ? openSignInSettings(server, open) : { mode: 'browser' };
  };
}
