/**
 * Decides whether Patchbay may contact a URL that OAuth discovery led it to (authorization-server
 * metadata, registration, token endpoints, and every redirect on the way). The MCP server's own origin
 * is always fine: the user typed it. Anything else must be https (http only to this computer), and
 * must not resolve to a private, link-local, unique-local or loopback address, unless the MCP server
 * itself lives on such an address (then the user chose a server in that network).
 *
 * Residual risk, accepted: the address is checked here and the connection made afterwards by fetch,
 * which resolves the name again. A DNS server that answers differently the second time (DNS
 * rebinding) can still steer that one request; pinning the checked address would need a custom
 * connector for every fetch the SDK makes.
 */
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name to all its addresses (dns.promises.lookup with `all: true` by default). */
export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

function blockList(ranges: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, type] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['0.0.0.0', 8, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['::', 128, 'ipv6'],
]);

export type AddressKind = 'loopback' | 'private' | 'public';

/** Where an IP address points. IPv4-mapped IPv6 addresses count as their IPv4 address (BlockList does that). */
export function classifyAddress(address: string): AddressKind {
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (PRIVATE.check(address, type)) return 'private';
  return 'public';
}

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

/**
 * Checks the authorization URL before it is opened in a browser: https, or http to this computer.
 * (The browser, not Patchbay, contacts it, so its address is not resolved here.)
 */
export function checkAuthorizationUrl(url: URL, serverName: string): void {
  const local = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname) || url.hostname.endsWith('.localhost');
  if (url.protocol === 'https:' || (url.protocol === 'http:' && local)) return;
  throw new OAuthHopRefusedError(
    `Patchbay did not open ${url.protocol}//${url.host}: ${serverName}'s authorization server gave a sign-in address that is not https.`,
  );
}

/** Why a hop is being made, for messages: discovery led there, or a redirect did. */
export type HopReason = 'metadata' | 'redirect';

export interface OAuthHopGuardOptions {
  serverName: string;
  serverUrl: URL;
  lookup?: LookupAll;
}

export class OAuthHopGuard {
  private serverIsLocal: Promise<boolean> | undefined;
  private readonly lookup: LookupAll;

  constructor(private readonly options: OAuthHopGuardOptions) {
    this.lookup = options.lookup ?? systemLookup;
  }

  isServerOrigin(url: URL): boolean {
    return url.origin === this.options.serverUrl.origin;
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
    const inner = addresses.find((entry) => entry.kind !== 'public');
    if (inner && !(await this.serverLocal())) {
      const what = inner.kind === 'loopback' ? 'an address on this computer' : 'a private address';
      const shown = inner.address === host.replace(/^\[|\]$/g, '') ? host : `${host} (${inner.address})`;
      throw new OAuthHopRefusedError(`Patchbay did not contact ${shown}: ${what} that ${via}.`);
    }
  }

  /** True when the MCP server itself is on this computer or a private network. */
  private serverLocal(): Promise<boolean> {
    this.serverIsLocal ??= this.resolve(this.options.serverUrl.hostname).then(
      (addresses) => addresses.some((entry) => entry.kind !== 'public'),
      () => false,
    );
    return this.serverIsLocal;
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
