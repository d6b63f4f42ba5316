/**
 * A {@link SandboxSpec} as bubblewrap's command line. The sandbox starts from an empty root: only
 * what is listed here exists inside, so the user's home, other servers' data and Patchbay's own
 * files are simply absent (ENOENT), not merely forbidden. That root is read-only: a write outside the
 * shared folders and the scratch folder fails with EROFS.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxSpec } from './sandbox-spec';
import { relayCommand } from './network-relay';

/** System locations a program needs to run (programs, libraries, configuration), read-only. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** What the host's file system looks like at a path: a symlink (merged /usr layouts), a directory, or nothing. */
export type PathKind = { kind: 'symlink'; target: string } | { kind: 'dir' } | { kind: 'file' } | { kind: 'missing' };

export function pathKind(p: string): PathKind {
  try {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return { kind: 'symlink', target: fs.readlinkSync(p) };
    return stat.isDirectory() ? { kind: 'dir' } : { kind: 'file' };
  } catch {
    return { kind: 'missing' };
  }
}

/** The program to run inside, with its arguments and working directory. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  cwd: string;
}

/**
 * bubblewrap's arguments for running `command` inside `spec`. `kindOf` is the file-system probe
 * (tests pass their own).
 *
 * Process lifetime: `--die-with-parent` ends the sandbox when Patchbay dies, and `--unshare-pid`
 * makes bubblewrap the init of a PID namespace, so when the server exits every process it left
 * behind (even one that called setsid to leave the process group) is killed by the kernel. No
 * `--new-session`: the server is spawned detached (setsid) already, so it has no terminal to abuse,
 * and staying in bubblewrap's process group keeps "SIGTERM the group" reaching everything inside.
 */
export function bwrapArgs(spec: SandboxSpec, command: SandboxedCommand, kindOf: (p: string) => PathKind = pathKind): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  // A network namespace of its own whatever the network: "Allowed" reaches the internet through the
  // host's proxy only (see network-relay.ts), never the host's abstract sockets (D-Bus, X11) or its
  // loopback ports.
  args.push('--unshare-net');
  for (const dir of SYSTEM_DIRS) {
    const kind = kindOf(dir);
    if (kind.kind === 'symlink') args.push('--symlink', kind.target, dir);
    else if (kind.kind === 'dir') args.push('--ro-bind', dir, dir);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');

  // Deeper mounts go last so they lay over shallower ones: a folder shared inside the install
  // location stays writable, the data directory stays hidden inside a shared home, the scratch
  // folder (inside the data directory) comes back on top of that.
  const relay = relayFolder(spec);
  const mounts: { at: string; args: string[] }[] = [
    ...spec.readOnly.map((p) => ({ at: p, args: ['--ro-bind', p, p] })),
    ...spec.readWrite.map((p) => ({ at: p, args: ['--bind', p, p] })),
    ...spec.hidden.filter((p) => isCovered(p, [...spec.readOnly, ...spec.readWrite])).map((p) => ({ at: p, args: ['--tmpfs', p] })),
    { at: spec.scratch, args: ['--bind', spec.scratch, spec.scratch] },
    ...(relay ? [{ at: relay, args: ['--ro-bind', relay, relay] }] : []),
    // The proxy's socket, when a long scratch path put it elsewhere (see proxySocketPath).
    ...[spec.proxy?.relay?.socket].flatMap((socket) =>
      socket && !isCovered(socket, [spec.scratch, ...spec.readWrite]) ? [{ at: socket, args: ['--bind', socket, socket] }] : [],
    ),
  ];
  mounts.sort((a, b) => depth(a.at) - depth(b.at));
  for (const mount of mounts) args.push(...mount.args);
  // Last, once every mount point exists: the root and /tmp become read-only, so a write anywhere but
  // the shared folders and the scratch folder fails (EROFS, which the Host log names) instead of
  // answering "written" and landing in a throwaway copy that vanishes with the sandbox.
  // The covers over hidden folders too (the scratch folder's own mount inside one stays writable).
  const covers = mounts.filter((m) => m.args[0] === '--tmpfs').map((m) => m.at);
  for (const at of [...covers.reverse(), '/tmp', '/']) args.push('--remount-ro', at);

  const home = spec.scratch;
  const cwd = isCovered(command.cwd, [...spec.readOnly, ...spec.readWrite, home]) ? command.cwd : home;
  args.push('--setenv', 'HOME', home, '--setenv', 'TMPDIR', path.join(home, 'tmp'), '--chdir', cwd);
  if (!spec.proxy?.relay) {
    args.push('--', command.file, ...command.args);
    return args;
  }
  for (const [name, value] of Object.entries(proxyEnv(spec.proxy.port))) args.push('--setenv', name, value);
  args.push('--unsetenv', 'NO_PROXY', '--unsetenv', 'no_proxy');
  const { runtime, socket } = spec.proxy.relay;
  args.push('--', ...relayCommand(runtime, spec.proxy.port, socket, command.file, command.args));
  return args;
}

/**
 * The folder of the relay's runtime when nothing else mounts it (Node under the system's folders
 * needs nothing; Patchbay's own binary in its install folder, or a Node under the home, does).
 */
export function relayFolder(spec: SandboxSpec): string | undefined {
  const folder = spec.proxy?.relay?.runtime.folder;
  if (!folder || isCovered(folder, [...SYSTEM_DIRS, ...spec.readOnly, ...spec.readWrite])) return undefined;
  return folder;
}

/** The variables that send proxy-aware programs (npm, pip, uv, curl…) through the host-filter proxy. */
export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const names = [
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'ALL_PROXY',
    'http_proxy',
    'https_proxy',
    'all_proxy',
    'npm_config_proxy',
    'npm_config_https_proxy',
  ];
  // Node's own fetch honours the variables only when asked (Node 22.21+, 24.5+).
  return { ...Object.fromEntries(names.map((name) => [name, url])), NODE_USE_ENV_PROXY: '1' };
}

/** True when `p` is one of `dirs` or inside one. */
export function isCovered(p: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`));
}

const depth = (p: string) => p.split('/').filter(Boolean).length;
