/**
 * Gets an access token without a browser, with the SDK's own providers doing the grant:
 *
 * - as an application: `ClientCredentialsProvider` (client secret, basic or post as the
 *   authorization server supports) or `PrivateKeyJwtProvider` (a JWT signed with the application's
 *   key, RFC 7523 — the SDK signs it with jose; the algorithm follows the key); with workload
 *   identity (SEP-1933), the JWT bearer grant (RFC 7523) instead, its assertion the identity token
 *   the workload's platform issued, printed by a command at each attempt and never stored
 *   (`CrossAppAccessProvider` makes that grant: here its assertion is the workload's token);
 * - through the organisation's identity provider: `CrossAppAccessProvider`, whose assertion is an
 *   ID-JAG from the identity provider's token exchange (RFC 8693) of the user's ID token, then
 *   redeemed with the JWT bearer grant (RFC 7523) — the flow of SEP-990 (Enterprise-Managed
 *   Authorization).
 *
 * Discovery is Patchbay's (`sign-in-discovery.ts`), so the same SSRF checks and plain messages
 * apply; the credentials go only to the authorization server the user named, when they named one.
 */
import {
  auth,
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
  type CrossAppAccessProviderOptions,
  type FetchLike,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { jwtDisplayName } from './account-name';
import { OAuthHopRefusedError, type OAuthHopGuard } from './oauth-hop-guard';
import { signingKeyOf } from '../server-config/private-key';
import type { ServerCredentials } from './server-credentials';
import { discoverAuthServer, type DiscoveredAuthServer } from './sign-in-discovery';
import type { AutomaticSignIn, OrganizationSignIn } from './sign-in-settings';
import { StoredTokensProvider } from './stored-tokens-provider';

const CLIENT_CREDENTIALS = 'client_credentials';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface AppSignInOptions {
  serverName: string;
  serverUrl: string;
  settings: AutomaticSignIn;
  credentials: ServerCredentials;
  /** The guarded network for the MCP server's OAuth hops, and its guard. */
  fetch: FetchLike;
  guard: OAuthHopGuard;
  /** The guarded network for the identity provider (organisation sign-in). */
  idpFetch: FetchLike;
  /** Gets the user's current ID token (organisation sign-in). */
  idToken(command: string): Promise<string>;
  /** Gets the workload's current identity token (application sign-in with workload identity). */
  workloadToken(command: string): Promise<string>;
  resourceMetadataUrl?: URL;
  scope?: string;
  /** A discovery made earlier for this server (reused until a sign-in fails). */
  discovery?: DiscoveredAuthServer;
}

/** Obtains and stores a token; resolves with the discovery used, rejects with the reason. */
export async function obtainAppTokens(options: AppSignInOptions): Promise<DiscoveredAuthServer> {
  const { settings, serverName } = options;
  const discovery =
    options.discovery ??
    (await discoverAuthServer({
      serverName,
      serverUrl: options.serverUrl,
      resourceMetadataUrl: options.resourceMetadataUrl,
      fetch: options.fetch,
      guard: options.guard,
      interactive: false,
    }));
  const metadata = discovery.state.authorizationServerMetadata;
  const issuer = metadata?.issuer ?? discovery.state.authorizationServerUrl;
  if (settings.issuer && !sameIssuer(settings.issuer, issuer)) {
    throw new OAuthHopRefusedError(
      `${serverName}'s metadata names the authorization server ${issuer}, but its sign-in is set up for ${settings.issuer}; Patchbay did not send the credentials there`,
    );
  }
  const workload = settings.mode === 'application' && settings.credential.kind === 'workload_jwt';
  const grant = settings.mode === 'application' && !workload ? CLIENT_CREDENTIALS : JWT_BEARER;
  if (metadata?.grant_types_supported && !metadata.grant_types_supported.includes(grant)) {
    const what =
      settings.mode === 'organization'
        ? 'the JWT bearer grant (sign-in through your organisation)'
        : workload
          ? 'the JWT bearer grant (sign-in as an application with workload identity)'
          : 'the client credentials grant (sign-in as an application)';
    throw new Error(`${serverName}'s authorization server (${new URL(issuer).host}) does not offer ${what}`);
  }
  if ((settings.mode === 'organization' || workload) && discovery.legacy) {
    const how = workload ? 'sign-in with workload identity' : 'sign-in through your organisation';
    throw new Error(`${serverName} publishes no protected-resource metadata, which ${how} needs (it names the resource the token is for)`);
  }
  const account = { name: settings.mode === 'application' ? settings.clientId : undefined };
  const provider = new StoredTokensProvider({
    inner: sdkProvider(settings, issuer, options, (name) => (account.name = name)),
    credentials: options.credentials,
    how: () => ({ account: account.name, legacy: discovery.legacy, mode: settings.mode }),
  });
  await provider.saveDiscoveryState(discovery.state);
  await auth(provider, {
    serverUrl: options.serverUrl,
    resourceMetadataUrl: options.resourceMetadataUrl,
    scope: options.scope,
    fetchFn: options.fetch,
    skipIssuerMetadataValidation: discovery.legacy,
  });
  return discovery;
}

/** The SDK provider that performs the grant; `expectedIssuer` stamps the client so it goes nowhere else. */
function sdkProvider(
  settings: AutomaticSignIn,
  issuer: string,
  options: AppSignInOptions,
  onAccount: (name: string) => void,
): OAuthClientProvider {
  const common = { clientId: settings.clientId, clientName: 'Patchbay', expectedIssuer: issuer };
  if (settings.mode === 'organization') {
    return new CrossAppAccessProvider({
      ...common,
      clientSecret: settings.clientSecret,
      fetchFn: options.idpFetch,
      assertion: async (ctx) => {
        const idToken = await options.idToken(settings.idp.idTokenCommand);
        onAccount(jwtDisplayName(idToken) ?? new URL(settings.idp.issuer).host);
        return identityAssertion(settings.idp, idToken, ctx, options.serverName);
      },
    });
  }
  if (settings.credential.kind === 'workload_jwt') {
    const { command, secret } = settings.credential;
    const workload = {
      ...common,
      // The SDK types the secret as required but reads an absent one as a public client ("none").
      ...(secret ? { clientSecret: secret } : {}),
      assertion: async () => {
        const token = await options.workloadToken(command);
        onAccount(jwtDisplayName(token) ?? settings.clientId);
        return token;
      },
    };
    return new CrossAppAccessProvider(workload as CrossAppAccessProviderOptions & typeof common);
  }
  if (settings.credential.kind === 'private_key_jwt') {
    const key = signingKeyOf(settings.credential.privateKeyPem);
    return new PrivateKeyJwtProvider({ ...common, privateKey: key.pkcs8, algorithm: key.alg });
  }
  return new ClientCredentialsProvider({ ...common, clientSecret: settings.credential.secret });
}

/** The identity provider's token exchange: the user's ID token for an ID-JAG naming this server. */
async function identityAssertion(
  idp: OrganizationSignIn['idp'],
  idToken: string,
  ctx: { authorizationServerUrl: string; resourceUrl: string; scope?: string; fetchFn: FetchLike },
  serverName: string,
): Promise<string> {
  const request = {
    audience: ctx.authorizationServerUrl,
    resource: ctx.resourceUrl,
    idToken,
    clientId: idp.clientId,
    ...(idp.clientSecret ? { clientSecret: idp.clientSecret } : {}),
    ...(ctx.scope ? { scope: ctx.scope } : {}),
    fetchFn: ctx.fetchFn,
  };
  try {
    const grant = idp.tokenEndpoint
      ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
      : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer });
    return grant.jwtAuthGrant;
  } catch (error) {
    if (error instanceof TypeError) throw error; // a refused hop or an unreachable host: already says which
    const reason = error instanceof Error ? error.message.replace(/^Token exchange failed:?\s*/, '') : String(error);
    throw new Error(`your identity provider (${new URL(idp.issuer).host}) refused to vouch for you to ${serverName}: ${reason}`);
  }
}

/** Issuer identifiers compare exactly, except for a trailing slash (as the SDK's own check allows). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}
