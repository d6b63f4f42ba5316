/**
 * The relay inside a bubblewrap sandbox with a network of its own: there only loopback exists, so a
 * tiny forwarder listens on 127.0.0.1:<port> there and carries each connection to the host-filter
 * proxy's unix socket, bound in from the server's scratch folder. It runs on the host's own runtime
 * (Node, or Patchbay's Electron binary in Node mode: the runAsNode fuse stays on), which every user
 * has, unlike socat; the script travels on its command line (`-e`), so there is no file to find in a
 * packaged app.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The forwarder. Once it listens it writes one byte to its fd 3 and closes it: the shell that starts
 * it waits for that end of file, so the server never starts before its proxy address answers. Its
 * stdout is /dev/null: the server's stdout is the MCP channel.
 */
export const RELAY_SCRIPT = [
  "const net = require('net'), fs = require('fs');",
  'const [, port, socket] = process.argv;',
  'net.createServer((inside) => {',
  '  const proxy = net.connect(socket);',
  '  const end = () => { inside.destroy(); proxy.destroy(); };',
  "  for (const s of [inside, proxy]) { s.on('error', end); s.on('close', end); }",
  '  inside.pipe(proxy); proxy.pipe(inside);',
  "}).listen(Number(port), '127.0.0.1', () => { fs.writeSync(3, 'r'); fs.closeSync(3); });",
].join('\n');

/** The program that runs the relay, and the folder it needs mounted inside (its own, for Electron's resources). */
export interface RelayRuntime {
  program: string;
  /** The folder holding `program`: mounted read-only when the system's folders do not hold it already. */
  folder: string;
  /** Electron's binary runs as Node only when told so. */
  env: Record<string, string>;
}

/** This process's own runtime as the relay's (real path: a link into an unmounted place would not resolve inside). */
export function relayRuntime(execPath = process.execPath, electron = process.versions.electron !== undefined): RelayRuntime {
  let program = execPath;
  try {
    program = fs.realpathSync(execPath);
  } catch {
    // keep the path as given
  }
  return { program, folder: path.dirname(program), env: electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/**
 * The command line that starts the relay in the background, waits until it listens, then replaces
 * the shell with the server (same process: the sandbox still ends when the server does, taking the
 * relay with it). A relay that fails to start ends its stdout too, so the server starts anyway and
 * the relay's error is in the Host log.
 */
export function relayCommand(runtime: RelayRuntime, port: number, socket: string, file: string, args: readonly string[]): string[] {
  const env = Object.entries(runtime.env).map(([name, value]) => `${name}=${value}`);
  const start = `${env.join(' ')} "$0" --max-old-space-size=16 -e "$1" "$2" "$3"`.trim();
  return [
    '/bin/sh',
    '-c',
    `_ready=$(${start} 3>&1 >/dev/null &); shift 3; exec "$@"`,
    runtime.program,
    RELAY_SCRIPT,
    String(port),
    socket,
    file,
    ...args,
  ];
}

/** A unix socket's path must fit in 108 bytes (sun_path), its terminating zero included. */
const SOCKET_PATH_MAX = 100;

/**
 * Where the host-filter proxy listens for a sandbox: in its scratch folder, or — when a long data
 * directory would make that path too long for a unix socket — in the temp folder under a name derived
 * from the scratch folder (bound into the sandbox at the same path).
 */
export function proxySocketPath(scratch: string, tmp = os.tmpdir()): string {
  const inScratch = path.join(scratch, 'proxy.sock');
  if (Buffer.byteLength(inScratch) <= SOCKET_PATH_MAX) return inScratch;
  return path.join(tmp, `patchbay-proxy-${crypto.createHash('sha256').update(scratch).digest('hex').slice(0, 16)}.sock`);
}
