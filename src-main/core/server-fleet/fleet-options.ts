import type { SandboxRuntime } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { ServerConfigRepository, StoredServer } from '../server-config/server-config-repository';
import type { SecretBox } from '../secrets/secret-box';
import type { LiveProcessStore } from '../servers/process/process-reaper';
import type { RemoteAuthSource } from '../servers/transport/remote-auth';
import type { ServerConfig, ServerConnectionOptions } from '../servers/connection/server-connection';
import type { ConnectionPlugin } from './connection-plugins';
import type { LaunchOverride } from './launch-spec';

/** What the fleet is made with: its stores, the areas' plugins and the launch settings every server shares. */

/** Connection settings every server shares (tests shorten waits and backoff here). */
export type FleetConnectionDefaults = Pick<ServerConnectionOptions, 'shutdown' | 'restart' | 'timeouts' | 'parentEnv' | 'loginShellPath'>;

export interface ServerFleetOptions {
  repo: ServerConfigRepository;
  secrets: SecretBox;
  processStore: LiveProcessStore;
  events: HostEventBus;
  clock: Clock;
  connectionDefaults?: FleetConnectionDefaults;
  /** What host areas add to every connection (capabilities, handlers, observers). */
  plugins?: readonly ConnectionPlugin[];
  /** Removes secrets from text a server produced (stderr, failure reasons) before it is shown. */
  redact?: (serverId: string, text: string) => string;
  /** How `startAllEnabled` paces the launch of many servers (see {@link StartQueueOptions}). */
  startQueue?: StartQueueOptions;
  /** OAuth for remote servers (none: a remote server that answers 401 fails with "needs sign-in"). */
  remoteAuth?: RemoteAuthSource;
  /** What other areas change in a launch (bundles: the app's own Node, sealed argument values). */
  launchOverride?: LaunchOverride;
  /** Puts sandboxed servers in their sandbox at launch, and says what each one's sandbox is. */
  sandboxes?: FleetSandboxes;
  /** The organisation's policy (guard/): why a server may not be added or started; undefined when it may. */
  admission?: FleetAdmission;
}

/** The fleet's view of the organisation's policy: each answer is the refusal in words, or undefined. */
export interface FleetAdmission {
  refusalToAdd(server: Pick<StoredServer, 'name' | 'transport' | 'command' | 'args' | 'url' | 'sandbox'>): string | undefined;
  refusalToStart(server: StoredServer): string | undefined;
}

/** The fleet's view of the sandbox area (see sandbox/server-sandboxes.ts). */
export interface FleetSandboxes {
  apply(server: StoredServer, config: ServerConfig): Promise<ServerConfig>;
  runtime(serverId: string, stderrTail?: readonly string[]): SandboxRuntime | undefined;
  /** Forgets the launch `apply` made with `sandbox` when nothing runs in it any more (a diagnosis). */
  release(serverId: string, sandbox: ServerConfig['sandbox']): void;
}

/**
 * `startAllEnabled` launches servers through a queue, in config order: at most `concurrency` are
 * being launched at once, and the event loop gets a turn between two launches, so the window's
 * calls are answered while 50 servers start instead of after one long synchronous burst.
 */
export interface StartQueueOptions {
  /** Launches in flight at once (default 2 × CPU cores, at least 4; env PATCHBAY_START_CONCURRENCY). */
  concurrency?: number;
  /**
   * A launch gives its slot back when its start settles or after this long (default 1000 ms),
   * whichever comes first: a slow server (an npx download, a long handshake) is waiting on I/O, not
   * CPU, and must not hold up the servers queued behind it.
   */
  slotMs?: number;
}
