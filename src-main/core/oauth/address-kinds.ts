/**
 * Where an IP address points, for the OAuth SSRF checks: this computer, a private network, a
 * link-local network (where cloud metadata services live: 169.254.169.254), the "unspecified" address
 * (0.0.0.0 and :: reach this computer on most systems), or the public internet.
 */
import { BlockList, isIP } from 'node:net';

export type AddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'public';

function blockList(ranges: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, type] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

const RANGES: Array<[AddressKind, BlockList]> = [
  [
    'loopback',
    blockList([
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]),
  ],
  [
    'link-local',
    blockList([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ]),
  ],
  [
    'unspecified',
    blockList([
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ]),
  ],
  [
    'private',
    blockList([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ]),
  ],
];

/** Where an IP address points. IPv4-mapped IPv6 addresses count as their IPv4 address (BlockList does that). */
export function classifyAddress(address: string): AddressKind {
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  for (const [kind, list] of RANGES) if (list.check(address, type)) return kind;
  return 'public';
}

/** How the messages name a kind of address ("a private address", "a link-local address"…). */
export function addressKindText(kind: AddressKind): string {
  switch (kind) {
    case 'loopback':
      return 'an address on this computer';
    case 'private':
      return 'a private address';
    case 'link-local':
      return 'a link-local address (where cloud metadata services live)';
    case 'unspecified':
      return 'the unspecified address (it reaches this computer)';
    case 'public':
      return 'a public address';
  }
}

/**
 * Where the MCP server itself lives, given all the addresses its name resolves to: on this computer
 * only when every address is loopback, in a private network when every address is private or
 * loopback (and one is private), else on the internet. A server on a link-local or unspecified
 * address earns no exemption.
 */
export function serverNetwork(kinds: readonly AddressKind[]): 'loopback' | 'private' | 'public' {
  if (kinds.length > 0 && kinds.every((kind) => kind === 'loopback')) return 'loopback';
  if (kinds.length > 0 && kinds.every((kind) => kind === 'loopback' || kind === 'private')) return 'private';
  return 'public';
}
