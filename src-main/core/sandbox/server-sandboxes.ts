/**
 * Puts sandboxed servers in their sandbox at each launch: the folders shared with the server right
 * now (real paths; a folder that is gone is left out and said so), a scratch folder of its own under
 * Patchbay's data directory, and the network its policy allows. Remembers what each running server
 * was launched with, for the Overview and for keeping the boundary in step with its roots.
 */
import fs from 'node:fs';
import path from 'node:path';
import { registryBlocked, registryMessage, registryNeed, type SandboxPolicy, type SandboxRuntime } from '@contract';
import type { StoredServer } from '../server-config/server-config-repository';
import type { ServerConfig } from '../servers/connection/server-connection';
import type { SandboxRunner } from './sandbox-support';
import { proxySocketPath, relayRuntime } from './network-relay';
import { PROXY_PORT, startHostFilterProxy, type BlockedReason, type HostFilterProxy } from './host-filter-proxy';
import type { SandboxSpec } from './sandbox-spec';
import { sandboxedLaunch } from './sandbox-launch';
import type { ProcessSandbox } from '../servers/process/stdio-process';
import { installLocations } from './install-locations';
import { launchPathNotes, sandboxMounts, type LaunchNames } from './launch-paths';
import { findBlockedPath, findDenials } from './sandbox-denial';

/** Stderr lines looked at together (Node prints an error's path a few lines below its code). */
const DENIAL_WINDOW = 4;
/** Denials written to the Host log per launch, at most: a server stuck in a loop must not flood it. */
const DENIALS_LOGGED = 50;

export interface ServerSandboxesOptions {
  dataDir: string;
  support(): SandboxRunner;
  /** The folders shared with the server now (available ones): absolute paths, and which are read-only. */
  sharedFolders(serverId: string): Promise<SandboxFolder[]>;
  /** A line in the server's Host log stream. */
  log(serverId: string, level: 'info' | 'warning', text: string): void;
}

/** A folder shared with a sandboxed server: mounted read-write, or read-only when shared so. */
export interface SandboxFolder {
  path: string;
  readOnly: boolean;
}

/** A sandbox as one launch of a server got it. */
interface Launched {
  spec: SandboxSpec;
  policy: SandboxPolicy;
  /** The shared folders it was built with (real paths). */
  folders: SandboxFolder[];
  /** Its package runner cannot reach the registry it starts from: what to do, in one sentence. */
  registryNote?: string;
  /** What the launch names (arguments, environment), read for paths the sandbox hides. */
  names: LaunchNames;
  /** The locations the launch added for the server's own code (known once it launched). */
  installOnly: string[];
  /** What `apply` handed the launch: which launch this is. */
  origin: ProcessSandbox;
  /** Its latest stderr lines, and the denied paths already written to the Host log. */
  recent: string[];
  reported: Set<string>;
}

export class ServerSandboxes {
  readonly name = 'sandbox';
  private readonly launched = new Map<string, Launched>();
  /** The host-filtering proxy of each server whose network is "Only these hosts". */
  private readonly proxies = new Map<string, HostFilterProxy>();

  constructor(private readonly options: ServerSandboxesOptions) {}

  /** Its connection plugin (by shape: this area ranks beside the fleet): every stderr line, read for denied accesses (the Host log). */
  readonly plugin = {
    onStderrLine: (server: { id: string }, line: string) => this.noteStderr(server.id, line),
  };

  /** The launch config, put in its sandbox when the server's policy asks for one. Rejects (a message for the user) when it cannot be. */
  async apply(server: StoredServer, config: ServerConfig): Promise<ServerConfig> {
    this.launched.delete(server.id);
    if (server.transport !== 'stdio' || !server.sandbox.enabled) return config;
    const support = this.options.support();
    if (!support.supported || !support.runner)
      throw new Error(
        `"${server.name}" is set to run in a sandbox, but ${support.supported ? 'no sandbox program was found' : lowerFirst(support.reason)} Turn Sandbox off in Edit to run it unsandboxed.`,
      );
    const folders = await this.realFolders(server.id, await this.options.sharedFolders(server.id));
    const scratch = path.join(this.options.dataDir, 'sandboxes', server.id);
    fs.mkdirSync(path.join(scratch, 'tmp'), { recursive: true, mode: 0o700 });
    const engine = support.engine ?? 'bubblewrap';
    const spec: SandboxSpec = {
      engine,
      runner: support.runner,
      readOnly: folders.filter((f) => f.readOnly).map((f) => f.path),
      readWrite: folders.filter((f) => !f.readOnly).map((f) => f.path),
      scratch,
      hidden: [this.options.dataDir],
      network: server.sandbox.network === 'allowed' ? 'allowed' : 'blocked',
    };
    this.proxies.get(server.id)?.close();
    this.proxies.delete(server.id);
    // One way out for both "Only these hosts" and, under bubblewrap, "Allowed": the host-filter proxy.
    // bubblewrap: a relay forwards the port inside its network namespace to the proxy's unix socket.
    // Seatbelt: no namespace; "Only these hosts" gets the proxy on the loopback and a profile that
    // allows that port only, "Allowed" the host's network as it is.
    const viaProxy = server.sandbox.network === 'hosts' || (server.sandbox.network === 'allowed' && engine === 'bubblewrap');
    if (viaProxy) {
      const socket = proxySocketPath(scratch);
      const rule = { hosts: server.sandbox.hosts, internet: server.sandbox.network === 'allowed' };
      const proxy = await startHostFilterProxy(engine === 'bubblewrap' ? socket : 'loopback', rule, (host, why) =>
        this.options.log(server.id, 'warning', `Sandbox: blocked a connection to ${host} (${blockedWhy(why, rule.hosts)})`),
      );
      this.proxies.set(server.id, proxy);
      spec.proxy = engine === 'bubblewrap' ? { port: PROXY_PORT, relay: { socket, runtime: relayRuntime() } } : { port: proxy.port ?? 0 };
    }
    const need = registryNeed(config.command, config.args ?? []);
    const registryNote = need && registryBlocked(need, server.sandbox.network, server.sandbox.hosts) ? registryMessage(need) : undefined;
    spec.onLaunched = (full) => {
      const current = this.launched.get(server.id);
      if (current?.spec !== spec) return;
      current.spec = full;
      current.installOnly = full.readOnly.filter((p) => !spec.readOnly.includes(p));
      // Say beforehand what the server will trip over: a folder argument it cannot see fails with
      // the server's own words ("Cannot access directory"), which never mention the sandbox.
      for (const note of launchPathNotes(current.names, full, current.installOnly))
        this.options.log(
          server.id,
          'warning',
          `Sandbox: its ${note.from} names ${note.path}, which the sandbox ${note.kind === 'hidden' ? 'hides from it' : 'shows only read-only'}: share ${note.folder} with it, or run it unsandboxed`,
        );
    };
    const origin: ProcessSandbox = { wrap: (file, args, cwd) => sandboxedLaunch(spec, file, args, cwd) };
    this.launched.set(server.id, {
      spec,
      origin,
      names: { args: config.args ?? [], env: config.env ?? {} },
      // Refined at launch, once the program is resolved.
      installOnly: installLocations(config.command, config.args ?? []).readOnly,
      policy: server.sandbox,
      folders,
      recent: [],
      reported: new Set(),
      ...(registryNote ? { registryNote } : {}),
    });
    if (registryNote) this.options.log(server.id, 'warning', `Sandbox: ${registryNote}`);
    this.options.log(
      server.id,
      'info',
      `Sandbox: started with ${engine === 'seatbelt' ? 'sandbox-exec (Seatbelt)' : 'bubblewrap'}; ${describeFolders(folders)}; scratch folder (HOME, TMPDIR) ${scratch}; network ${describeNetwork(server.sandbox, spec.proxy !== undefined)}`,
    );
    return { ...config, sandbox: origin };
  }

  /** What the Overview says of a sandboxed server's current launch (undefined when not sandboxed). */
  runtime(serverId: string, stderrTail: readonly string[] = []): SandboxRuntime | undefined {
    const launched = this.launched.get(serverId);
    if (!launched) return undefined;
    const blockedPath = findBlockedPath(stderrTail, launched.spec);
    const pathNotes = launchPathNotes(launched.names, launched.spec, launched.installOnly);
    return {
      mounts: sandboxMounts(launched.spec, launched.installOnly),
      ...(pathNotes.length > 0 ? { pathNotes } : {}),
      summary: describeSandbox(launched.folders, launched.policy, launched.spec.proxy !== undefined),
      folders: launched.folders.map((f) => f.path),
      readOnlyFolders: launched.folders.filter((f) => f.readOnly).map((f) => f.path),
      ...(blockedPath ? { blockedPath } : {}),
      ...(launched.registryNote ? { registryNote: launched.registryNote } : {}),
    };
  }

  /**
   * A line the server wrote to stderr: a file access it reports failing on a path outside the sandbox
   * (or a write to a folder mounted read-only) goes to its Host log with the path, once per launch.
   */
  noteStderr(serverId: string, line: string): void {
    const launched = this.launched.get(serverId);
    if (!launched) return;
    launched.recent.push(line);
    if (launched.recent.length > DENIAL_WINDOW) launched.recent.shift();
    for (const denial of findDenials(launched.recent, launched.spec)) {
      if (launched.reported.has(denial.path) || launched.reported.size >= DENIALS_LOGGED) continue;
      launched.reported.add(denial.path);
      this.options.log(
        serverId,
        'warning',
        denial.kind === 'outside'
          ? `Sandbox: denied access to ${denial.path} (outside the sandbox)`
          : denial.kind === 'write-outside'
            ? `Sandbox: denied a write to ${denial.path} (outside the shared folders: nothing was written)`
            : `Sandbox: denied a write to ${denial.path} (mounted read-only)`,
      );
    }
  }

  /** The folders the running server's sandbox was built with (undefined when it is not sandboxed). */
  foldersOf(serverId: string): readonly SandboxFolder[] | undefined {
    return this.launched.get(serverId)?.folders;
  }

  /**
   * Forgets a launch that ended without a server left running (a diagnosis), closing its proxy —
   * unless a newer launch of the server has taken its place meanwhile.
   */
  release(serverId: string, sandbox: ProcessSandbox | undefined): void {
    if (!sandbox || this.launched.get(serverId)?.origin !== sandbox) return;
    this.launched.delete(serverId);
    this.proxies.get(serverId)?.close();
    this.proxies.delete(serverId);
  }

  /** Closes every host-filtering proxy (at quit). */
  dispose(): void {
    for (const proxy of this.proxies.values()) proxy.close();
    this.proxies.clear();
  }

  /** Real paths; a folder that is gone is left out, one shared through a symlink is shared as its target. */
  private async realFolders(serverId: string, folders: SandboxFolder[]): Promise<SandboxFolder[]> {
    const real = new Map<string, SandboxFolder>();
    for (const folder of folders) {
      try {
        const target = await fs.promises.realpath(folder.path);
        if (target !== folder.path) this.options.log(serverId, 'info', `Sandbox: ${folder.path} is a link; shared as its target ${target}`);
        // Two folders leading to one place: read-write wins only when both say so.
        const seen = real.get(target);
        real.set(target, { path: target, readOnly: folder.readOnly && (seen?.readOnly ?? true) });
      } catch {
        this.options.log(serverId, 'warning', `Sandbox: shared folder ${folder.path} no longer exists; left out of the sandbox`);
      }
    }
    return [...real.values()];
  }
}

/** "reads and writes /a; only reads /b", for the Host log. */
function describeFolders(folders: readonly SandboxFolder[]): string {
  const writable = folders.filter((f) => !f.readOnly).map((f) => f.path);
  const readable = folders.filter((f) => f.readOnly).map((f) => f.path);
  if (folders.length === 0) return 'reads and writes no shared folders';
  return [writable.length > 0 && `reads and writes ${writable.join(', ')}`, readable.length > 0 && `only reads ${readable.join(', ')}`]
    .filter(Boolean)
    .join('; ');
}

/** "Sandboxed: sees 2 shared folders (1 read-only); network blocked". */
export function describeSandbox(shared: readonly SandboxFolder[], policy: SandboxPolicy, proxied = false): string {
  const count = shared.length;
  const readOnly = shared.filter((f) => f.readOnly).length;
  const folders =
    (count === 0 ? 'sees no shared folders' : `sees ${count} shared folder${count === 1 ? '' : 's'}`) +
    (readOnly === 0 ? '' : readOnly === count ? (count === 1 ? ', read-only' : ', all read-only') : ` (${readOnly} read-only)`);
  const network =
    policy.network === 'allowed'
      ? proxied
        ? `network allowed through Patchbay (this computer ${policy.hosts.length > 0 ? `only at ${policy.hosts.join(', ')}` : 'not reachable'})`
        : 'network allowed'
      : policy.network === 'hosts'
        ? `network only to ${policy.hosts.join(', ')}`
        : 'network blocked';
  return `Sandboxed: ${folders}; ${network}`;
}

/** The network as the Host log says it at launch. */
function describeNetwork(policy: SandboxPolicy, proxied: boolean): string {
  if (policy.network === 'hosts') return `only ${policy.hosts.join(', ')} (through a proxy)`;
  if (policy.network === 'blocked') return 'blocked';
  if (!proxied) return 'allowed';
  const named = policy.hosts.length > 0 ? `; this computer only at ${policy.hosts.join(', ')}` : '; not this computer';
  return `allowed through a proxy (a network of its own${named})`;
}

/** Why the proxy refused, in the Host log's words. */
function blockedWhy(why: BlockedReason, hosts: readonly string[]): string {
  if (why === 'local') return "this computer's own address: name it in the server's sandbox hosts to allow it";
  return `not in its list: ${hosts.join(', ')}`;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
