/**
 * "Network allowed" means the internet, not this computer: the host-filter proxy resolves each name
 * itself and refuses an address that is the host's own (loopback, the unspecified address, any of
 * its interfaces' addresses, link-local) unless the server's list names it. Checking the address it
 * will connect to, not the name, keeps a name that resolves to 127.0.0.1 from opening the door.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';

/** True when `address` (an IP address) lies on this computer or its link. */
export function isLocalAddress(address: string, own: readonly string[] = ownAddresses()): boolean {
  const ip = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    if (a === 127 || a === 0 || (a === 169 && b === 254)) return true;
  } else if (net.isIPv6(ip)) {
    if (ip === '::1' || ip === '::' || /^fe[89ab]/.test(ip)) return true;
  }
  return own.includes(ip);
}

/** The addresses of this computer's interfaces (looked up each time: they change with the network). */
function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address.toLowerCase()));
}

/** Where to connect for `host`: its first address, and whether that address is this computer's own. */
export async function resolveTarget(host: string): Promise<{ address: string; local: boolean }> {
  const bare = host.replace(/^\[|\]$/g, '');
  const address = net.isIP(bare) ? bare : (await dns.lookup(bare)).address;
  return { address, local: isLocalAddress(address) };
}
