/**
 * A {@link SandboxSpec} as a macOS Seatbelt profile (SBPL, run with `sandbox-exec -p`): the same rules
 * as bubblewrap's empty root (bwrap-args.ts), written as deny-by-default allow rules. Read: the
 * system, the install location, the shared folders; write: the read-write shares and the scratch
 * folder; network: none, all, or only the host-filter proxy on the loopback.
 *
 * Differences a reader should know: Seatbelt filters operations rather than building a root, so an
 * unshared file exists but cannot be opened (EPERM, not ENOENT); and it has no PID namespace, so
 * "dies with Patchbay" rests on the process group, as for unsandboxed servers. Untested on a Mac
 * here (only the profile text is tested): sandbox-exec is deprecated by Apple but still shipped and
 * used the same way by other tools.
 */
import path from 'node:path';
import { isCovered, proxyEnv, type SandboxedCommand } from './bwrap-args';
import type { SandboxSpec } from './sandbox-spec';

/** Where macOS keeps its programs, libraries and configuration (read-only inside). */
const SYSTEM_READ = [
  '/usr',
  '/bin',
  '/sbin',
  '/System',
  '/Library',
  '/opt', // Homebrew on Apple silicon, MacPorts
  '/private/etc',
  '/private/var/db/timezone',
  '/private/var/db/dyld',
  '/dev',
];
/** The links at the top of the file system that lead into /private (reading the link itself). */
const SYSTEM_LINKS = ['/etc', '/tmp', '/var'];
/** Devices every program may write (and read). */
const DEVICES = ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty', '/dev/dtracehelper'];
/** System services a Node or Python process needs to start, log and check certificates. */
const MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.logger',
  'com.apple.system.notification_center',
  'com.apple.trustd.agent',
  'com.apple.SecurityServer',
  'com.apple.logd',
  'com.apple.diagnosticd',
  'com.apple.CoreServices.coreservicesd',
];
/** Name resolution goes through mDNSResponder: only when the network is allowed at all. */
const DNS_SERVICES = ['com.apple.dnssd.service', 'com.apple.mDNSResponder'];

/** An SBPL string literal: quotes, backslashes and line breaks escaped. */
export function sbplString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

const subpath = (p: string) => `(subpath ${sbplString(p)})`;
const literal = (p: string) => `(literal ${sbplString(p)})`;

/** `dir`, minus the listed places inside it (`require-not`), as one SBPL filter. */
function except(dir: string, excluded: readonly string[]): string {
  const inside = excluded.filter((p) => p !== dir && isCovered(p, [dir]));
  if (inside.length === 0) return subpath(dir);
  return `(require-all ${subpath(dir)} ${inside.map((p) => `(require-not ${subpath(p)})`).join(' ')})`;
}

/** Every folder above `p` (`/Users`, `/Users/ada` for `/Users/ada/work`): their metadata must be readable to reach it. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let dir = path.posix.dirname(p); dir !== '/'; dir = path.posix.dirname(dir)) out.push(dir);
  return out;
}

/** The profile for `spec`. */
export function seatbeltProfile(spec: SandboxSpec): string {
  const readable = [...spec.readOnly, ...spec.readWrite];
  // Hidden places (Patchbay's data directory) stay out even inside a shared folder, except the scratch folder.
  const readRule = (dir: string) => except(dir, spec.hidden);
  // A place shared read-only, or the install location, inside a read-write share stays read-only.
  const writeRule = (dir: string) => except(dir, [...spec.hidden, ...spec.readOnly]);
  const reachable = [...new Set([...readable, spec.scratch].flatMap(ancestors))].sort();

  const lines = [
    '(version 1)',
    '(deny default)',
    '; Its own processes: run programs, fork, signal and inspect each other, nothing outside.',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    '(allow user-preference-read)',
    `(allow mach-lookup ${MACH_SERVICES.map((name) => `(global-name ${sbplString(name)})`).join(' ')})`,
    '; Read: the system, its install location and the shared folders.',
    `(allow file-read* ${SYSTEM_READ.map(subpath).join(' ')})`,
    `(allow file-read* ${[...SYSTEM_LINKS, '/'].map(literal).join(' ')})`,
    ...(reachable.length > 0 ? [`(allow file-read-metadata ${reachable.map(literal).join(' ')})`] : []),
    ...(readable.length > 0 ? [`(allow file-read* ${readable.map(readRule).join(' ')})`] : []),
    `(allow file-read* file-write* ${DEVICES.map(literal).join(' ')})`,
    '; Write: the folders shared read-write, and its scratch folder (HOME, TMPDIR).',
    ...(spec.readWrite.length > 0 ? [`(allow file-write* ${spec.readWrite.map(writeRule).join(' ')})`] : []),
    `(allow file-read* file-write* ${subpath(spec.scratch)})`,
    ...networkRules(spec),
  ];
  return `${lines.join('\n')}\n`;
}

function networkRules(spec: SandboxSpec): string[] {
  const dns = `(allow mach-lookup ${DNS_SERVICES.map((name) => `(global-name ${sbplString(name)})`).join(' ')})`;
  if (spec.proxy)
    return [
      '; Network: only the host-filter proxy on the loopback (it resolves names itself).',
      `(allow network-outbound (remote ip ${sbplString(`localhost:${spec.proxy.port}`)}))`,
    ];
  if (spec.network === 'allowed') return ['; Network: allowed.', '(allow network*)', '(allow system-socket)', dns];
  return ['; Network: blocked (no rule allows any; it talks to Patchbay over its stdio pipes).'];
}

/**
 * sandbox-exec's command line for `command` in `spec`: `env` sets HOME and TMPDIR to the scratch folder
 * (and the proxy variables) inside, since sandbox-exec runs the program with the environment it got.
 * The working directory is the spawn's own (`cwd`), kept when it is inside the sandbox.
 */
export function seatbeltArgs(spec: SandboxSpec, command: SandboxedCommand): { args: string[]; cwd: string } {
  const vars = {
    HOME: spec.scratch,
    TMPDIR: path.posix.join(spec.scratch, 'tmp'),
    ...(spec.proxy ? proxyEnv(spec.proxy.port) : {}),
  };
  const cwd = isCovered(command.cwd, [...spec.readOnly, ...spec.readWrite, spec.scratch]) ? command.cwd : spec.scratch;
  const unset = spec.proxy ? ['-u', 'NO_PROXY', '-u', 'no_proxy'] : [];
  return {
    args: [
      '-p',
      seatbeltProfile(spec),
      '/usr/bin/env',
      ...unset,
      ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
      command.file,
      ...command.args,
    ],
    cwd,
  };
}
