/**
 * Decides whether Patchbay may contact a URL that OAuth discovery led it to (authorization-server
 * metadata, registration, token endpoints, and every redirect on the way). The MCP server's own origin
 * is always fine: the user typed it. Anything else must be https (http only to this computer), and
 * must not resolve to a non-public address — unless it is in the very network the MCP server itself
 * lives in (then the user chose a server there): loopback for a server on this computer, private for a
 * server on a private network. A server on this computer can thus never steer Patchbay to
 * 169.254.169.254 or 10.0.0.1.
 *
 * Residual risk, accepted: the address is checked here and the connection made afterwards by fetch,
 * which resolves the name again. A DNS server that answers differently the second time (DNS
 * rebinding) can still steer that one request; pinning the checked address would need a custom
 * connector for every fetch the SDK makes.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import { addressKindText, classifyAddress, serverNetwork, type AddressKind } from './address-kinds';

/** Resolves a host name to all its addresses (dns.promises.lookup with `all: true` by default). */
export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Refused before any byte was sent. A TypeError, like fetch's own network failures, because the SDK's
 * discovery swallows other errors of the protected-resource lookup and would carry on without saying why.
 */
export class OAuthHopRefusedError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthHopRefusedError';
  }
}

/** Checks the authorization URL before it is opened in a browser: https, or http to this computer. */
export function checkAuthorizationUrl(url: URL, serverName: string): void {
  const local = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname) || url.hostname.endsWith('.localhost');
  if (url.protocol === 'https:' || (url.protocol === 'http:' && local)) return;
  throw new OAuthHopRefusedError(
    `Patchbay did not open ${url.protocol}//${url.host}: ${serverName}'s authorization server gave a sign-in address that is not https.`,
  );
}

/**
 * Parses a URL that OAuth metadata gave (an authorization server, a metadata document) and refuses
 * anything but http(s) by name, before the SDK turns, say, a `file:` URL into a bare "Invalid URL".
 * `what` names it for the message: "the authorization server that X's resource metadata names".
 */
export function requireWebUrl(text: string, what: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '') return url;
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  throw new OAuthHopRefusedError(`${what} is not an http(s) URL (${JSON.stringify(shown)}), so Patchbay refused it`);
}

/** Why a hop is being made, for messages: discovery led there, or a redirect did. */
export type HopReason = 'metadata' | 'redirect';

/** The endpoints authorization-server metadata names, by the words messages use for them. */
const ENDPOINT_NAMES: Record<string, string> = {
  token_endpoint: 'token endpoint',
  registration_endpoint: 'registration endpoint',
  authorization_endpoint: 'authorization endpoint',
  revocation_endpoint: 'revocation endpoint',
};

export interface OAuthHopGuardOptions {
  serverName: string;
  serverUrl: URL;
  lookup?: LookupAll;
}

/**
 * Decides whether Patchbay may contact a URL OAuth led it to. The MCP server's own origin is always
 * fine. Anything else must be https (http only to this computer when the server is on it too), and
 * must not resolve to a non-public address, with one exemption: the network the MCP server itself is
 * in — loopback targets for a server on this computer, private ones for a server on a private
 * network. Link-local and unspecified addresses are never exempt.
 */
export class OAuthHopGuard {
  private serverKind: Promise<'loopback' | 'private' | 'public'> | undefined;
  private readonly lookup: LookupAll;
  private readonly endpoints = new Map<string, string>();

  constructor(private readonly options: OAuthHopGuardOptions) {
    this.lookup = options.lookup ?? systemLookup;
  }

  isServerOrigin(url: URL): boolean {
    return url.origin === this.options.serverUrl.origin;
  }

  /** Remembers which URL is which endpoint, so messages can say "the token endpoint of auth.example.com". */
  learnEndpoints(metadata: Record<string, unknown> | undefined): void {
    for (const [field, name] of Object.entries(ENDPOINT_NAMES)) {
      const value = metadata?.[field];
      if (typeof value === 'string') this.endpoints.set(withoutQuery(value), name);
    }
  }

  /** "the token endpoint of auth.example.com", or just the host for a URL with no known role. */
  describe(url: URL): string {
    const role = this.endpoints.get(withoutQuery(url.href));
    return role ? `the ${role} of ${url.host}` : url.host;
  }

  /** Resolves when `url` may be contacted; rejects with an `OAuthHopRefusedError` naming the host and why. */
  async check(url: URL, reason: HopReason = 'metadata'): Promise<void> {
    if (this.isServerOrigin(url)) return;
    const host = url.hostname;
    const via =
      reason === 'redirect'
        ? `a redirect on the way to ${this.options.serverName}'s sign-in pointed to`
        : `${this.options.serverName}'s OAuth metadata pointed to`;
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new OAuthHopRefusedError(`Patchbay did not contact ${url.protocol}//${host}: ${via} a URL that is not https.`);
    const addresses = await this.resolve(host);
    const onThisComputer = addresses.every((entry) => entry.kind === 'loopback');
    if (url.protocol === 'http:' && !onThisComputer) {
      throw new OAuthHopRefusedError(
        `Patchbay did not contact ${host}: ${via} plain http:// (only https is allowed, or http on this computer).`,
      );
    }
    const server = await this.serverNetwork();
    const inner = addresses.find((entry) => entry.kind !== 'public' && entry.kind !== server);
    if (inner) {
      const shown = inner.address === host.replace(/^\[|\]$/g, '') ? host : `${host} (${inner.address})`;
      throw new OAuthHopRefusedError(`Patchbay did not contact ${shown}: ${addressKindText(inner.kind)} that ${via}.`);
    }
  }

  /** Where the MCP server itself is: this computer, a private network, or the internet. */
  private serverNetwork(): Promise<'loopback' | 'private' | 'public'> {
    this.serverKind ??= this.resolve(this.options.serverUrl.hostname).then(
      (addresses) => serverNetwork(addresses.map((entry) => entry.kind)),
      () => 'public' as const,
    );
    return this.serverKind;
  }

  private async resolve(hostname: string): Promise<Array<{ address: string; kind: AddressKind }>> {
    const bare = hostname.replace(/^\[|\]$/g, '');
    if (isIP(bare)) return [{ address: bare, kind: classifyAddress(bare) }];
    // RFC 6761: localhost names always mean this computer, whatever a resolver says.
    if (bare === 'localhost' || bare.endsWith('.localhost')) return [{ address: bare, kind: 'loopback' }];
    let found: Array<{ address: string }>;
    try {
      found = await this.lookup(bare);
    } catch (error) {
      throw new OAuthHopRefusedError(`Patchbay could not find ${bare} (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'}).`);
    }
    if (found.length === 0) throw new OAuthHopRefusedError(`Patchbay could not find ${bare}.`);
    return found.map((entry) => ({ address: entry.address, kind: classifyAddress(entry.address) }));
  }
}

function withoutQuery(href: string): string {
  try {
    const url = new URL(href);
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return href;
  }
}
