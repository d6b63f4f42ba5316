/**
 * Configuration of a `ServerConnection`: what to run, the timeouts, and the callbacks through
 * which it reports. Kept apart from the class so callers can build options without importing it.
 */
import type { Client, ClientCapabilities, Implementation, PriorDiscovery } from '@modelcontextprotocol/client';
import type { LiveProcessStore } from '../process/process-reaper';
import type { RemoteAuth } from '../transport/remote-auth';
import type { RemoteTransportMode } from '../transport/remote-transport';
import type { WireTap } from '../transport/session-transport';
import type { HandlerWrap } from '../sdk-internals/host-client';
import type { RestartPolicyOptions } from './restart-policy';
import type { ServerCatalog, ServerState } from './server-state';
import type { StderrRingOptions } from '../process/stderr-ring';
import type { ProcessSpec, ShutdownOptions } from '../process/stdio-process';

/**
 * What the host adds to every session's SDK client: exactly the capabilities it implements, and the
 * handlers behind them (roots, sampling, elicitation, log messages…), installed before connecting.
 */
export interface ClientFeatures {
  capabilities: ClientCapabilities;
  install(client: Client): void;
  /** Wraps the handler of a request the server sends (see `HostClient`). */
  wrapHandler?: HandlerWrap;
}

/** Where a remote server is and what to send it (secrets already opened, in memory only). */
export interface RemoteSpec {
  url: string;
  headers: Record<string, string>;
}

/** What a session connects to: a process to spawn, or (with `remote`) a URL. */
export interface ServerSpec extends ProcessSpec {
  remote?: RemoteSpec;
}

/** A server as configured by the user. */
export interface ServerConfig extends ServerSpec {
  id: string;
  /** Shown to the user and used in every message. */
  name: string;
}

export type { RemoteTransportMode };

/** All time limits of a connection, in milliseconds (defaults in parentheses). */
export interface ConnectionTimeouts {
  /** Start (handshake + catalog) without answer and without stderr output (60 s). */
  startMs: number;
  /** Hard cap on a start, output or not (10 min). */
  startMaxMs: number;
  /** Silence on `server/discover` before assuming a legacy server (10 s). */
  probeMs: number;
  /** Request without answer or progress (60 s). */
  requestMs: number;
  /** Request in total, progress or not (10 min). */
  requestMaxTotalMs: number;
  /** Ping after this much quiet; 0 disables (30 s). Legacy era only. */
  pingIntervalMs: number;
  /** A ping's deadline (10 s). */
  pingTimeoutMs: number;
}

/** The default time limits (see {@link ConnectionTimeouts}). */
export const CONNECTION_DEFAULTS: ConnectionTimeouts = {
  startMs: 60_000,
  startMaxMs: 600_000,
  probeMs: 10_000,
  requestMs: 60_000,
  requestMaxTotalMs: 600_000,
  pingIntervalMs: 30_000,
  pingTimeoutMs: 10_000,
};

/** Everything a `ServerConnection` is built from; only `config` is required. */
export interface ServerConnectionOptions {
  config: ServerConfig;
  clientInfo?: Implementation;
  /** A cached era verdict from a previous run (see `ServerIdentity.eraVerdict`). */
  prior?: PriorDiscovery;
  timeouts?: Partial<ConnectionTimeouts>;
  shutdown?: ShutdownOptions;
  restart?: RestartPolicyOptions;
  maxMessageBytes?: number;
  stderr?: Omit<StderrRingOptions, 'onLine'>;
  /** Debounce of list_changed refreshes (default 300 ms). */
  listChangedDebounceMs?: number;
  /** Where live process groups are recorded for the leftover reaper. */
  processStore?: LiveProcessStore;
  parentEnv?: NodeJS.ProcessEnv;
  loginShellPath?: () => Promise<string[]>;
  onStateChange?: (state: ServerState) => void;
  onCatalogChange?: (catalog: ServerCatalog) => void;
  onStderrLine?: (line: string) => void;
  onWarning?: (message: string) => void;
  clientFeatures?: ClientFeatures;
  onWire?: WireTap;
  /** Remote servers: OAuth for this connection (none: no OAuth, a 401 is an error). */
  remoteAuth?: RemoteAuth;
  now?: () => number;
}
