/**
 * A sandbox's one way out: the server has no network of its own (a network namespace with only
 * loopback); inside, a relay (network-relay.ts) forwards 127.0.0.1:<port> to a unix socket bound in
 * from its scratch folder, where this HTTP proxy listens on the host side. It lets through CONNECT
 * tunnels (HTTPS) and plain HTTP requests — to the listed hosts only ("Only these hosts"), or to the
 * internet but not this computer's own addresses unless listed ("Allowed") — and reports every
 * refusal. Programs that honour HTTPS_PROXY/HTTP_PROXY (npm, pip, uv, curl, Python's requests…) get
 * through; anything that ignores them reaches nothing.
 */
import fs from 'node:fs';
import net from 'node:net';
import { resolveTarget } from './local-addresses';

/** The proxy's address inside the sandbox. */
export const PROXY_PORT = 3128;

/** True when `host` (and `port`) matches one of `allowed` (`name`, `name:port`, `*.suffix`). */
export function hostAllowed(host: string, port: number, allowed: readonly string[]): boolean {
  const name = loopbackName(host.toLowerCase().replace(/^\[|\]$/g, ''));
  return allowed.some((entry) => {
    const [pattern, entryPort] = entry.split(':');
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === loopbackName(pattern);
  });
}

/** The host's own loopback under any of its names (`localhost`, 127.0.0.1, ::1) is one place: listing one admits the others. */
function loopbackName(name: string): string {
  return name === 'localhost' || name === '127.0.0.1' || name === '::1' ? 'localhost' : name;
}

export interface HostFilterProxy {
  /** The loopback port it listens on, when started on one (`at: 'loopback'`). */
  port?: number;
  close(): void;
}

/** What the proxy lets through: the listed hosts, and with `internet` any host not on this computer. */
export interface ProxyRule {
  hosts: readonly string[];
  internet: boolean;
}

/** Why a connection was refused, for the Host log. */
export type BlockedReason = 'unlisted' | 'local';

/**
 * Starts the proxy on the unix socket `at` (bubblewrap: relayed inside), or on a free port of the
 * host's loopback (`'loopback'`: Seatbelt lets the server reach that port only). `onBlocked` hears
 * every refused host.
 */
export async function startHostFilterProxy(
  at: string,
  rule: ProxyRule,
  onBlocked: (host: string, why: BlockedReason) => void,
): Promise<HostFilterProxy> {
  const socketPath = at === 'loopback' ? undefined : at;
  if (socketPath) fs.rmSync(socketPath, { force: true });
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > 64 * 1024) client.destroy();
        return;
      }
      client.off('data', onData);
      void relay(client, head.subarray(0, end + 4), head.subarray(end + 4));
    };
    client.on('data', onData);
  });
  const relay = async (client: net.Socket, header: Buffer, rest: Buffer) => {
    const lines = header.toString('latin1').split('\r\n');
    const [method = '', target = '', version = 'HTTP/1.1'] = lines[0].split(' ');
    let host: string;
    let port: number;
    let firstBytes: Buffer;
    if (method === 'CONNECT') {
      const at = target.lastIndexOf(':');
      host = target.slice(0, at);
      port = Number(target.slice(at + 1));
      firstBytes = rest;
    } else {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return void client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      }
      host = url.hostname;
      port = Number(url.port || 80);
      const originForm = [`${method} ${url.pathname}${url.search} ${version}`, ...lines.slice(1)].join('\r\n');
      firstBytes = Buffer.concat([Buffer.from(originForm, 'latin1'), rest]);
    }
    const refuse = (why: BlockedReason) => {
      onBlocked(`${host}:${port}`, why);
      client.end(
        why === 'local'
          ? 'HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\nPatchbay: this computer’s own ports are reachable only when named in the server’s sandbox list\n'
          : 'HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\nPatchbay: this host is not in the server’s sandbox list\n',
      );
    };
    if (!host || !Number.isInteger(port)) return refuse('unlisted');
    let address = host.replace(/^\[|\]$/g, '');
    if (!hostAllowed(host, port, rule.hosts)) {
      if (!rule.internet) return refuse('unlisted');
      // The internet, not this computer: the address it would reach decides (and is where it goes).
      try {
        const target = await resolveTarget(host);
        if (target.local) return refuse('local');
        address = target.address;
      } catch {
        return void client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\nPatchbay: cannot resolve this host\n');
      }
    }
    const upstream = net.connect({ host: address, port });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      if (method === 'CONNECT') client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (firstBytes.length > 0) upstream.write(firstBytes);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (socketPath) server.listen(socketPath, resolve);
    else server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  const address = server.address();
  return {
    ...(typeof address === 'object' && address ? { port: address.port } : {}),
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
      if (socketPath) fs.rmSync(socketPath, { force: true });
    },
  };
}
