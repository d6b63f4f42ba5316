/**
 * One life of a server process (or of a connection to a remote server): our transport plus a fresh
 * SDK `Client` on top of it.
 * A restart builds a new session rather than reconnecting the old client, so no handler, cache
 * or negotiated era of a dead process can leak into the next one.
 */
import type { Implementation, PriorDiscovery } from '@modelcontextprotocol/client';
import { HealthMonitor } from './health-monitor';
import { HostClient } from '../sdk-internals/host-client';
import type { ClientFeatures, RemoteTransportMode, ServerSpec } from './connection-options';
import type { RemoteAuth } from '../transport/remote-auth';
import { RemoteServerTransport } from '../transport/remote-transport';
import type { SessionTransport, WireTap } from '../transport/session-transport';
import type { CrashInfo } from './request-errors';
import { listChangedHandlers } from './server-catalog';
import { describeExit, type ServerCatalog, type ServerIdentity } from './server-state';
import type { StderrRingOptions } from '../process/stderr-ring';
import type { ShutdownOptions, ShutdownResult, StdioProcess } from '../process/stdio-process';
import { StdioServerTransport } from '../transport/stdio-transport';
import { LazySchemaValidator } from '../../tool-definition/schema-compiler';
import { ProbeOnlyCacheStore } from './response-cache';

/** One for every connection: compiled validators are cached per schema object. */
const SCHEMA_VALIDATOR = new LazySchemaValidator();

/** What a session is built from; the callbacks report to the owning connection. */
export interface SessionOptions {
  serverName: string;
  spec: ServerSpec;
  /** Remote servers: which HTTP transport this session uses (default streamable-http). */
  remoteMode?: RemoteTransportMode;
  remoteAuth?: RemoteAuth;
  clientInfo: Implementation;
  /** How long the `server/discover` probe may stay unanswered before assuming a legacy server. */
  probeTimeoutMs: number;
  listChangedDebounceMs: number;
  maxMessageBytes?: number;
  stderr?: Omit<StderrRingOptions, 'onLine'>;
  shutdown?: ShutdownOptions;
  parentEnv?: NodeJS.ProcessEnv;
  loginShellPath?: () => Promise<string[]>;
  /** Boot at background CPU priority until ready (a server started among many; see start-priority.ts). */
  background?: boolean;
  onStderrLine: (line: string) => void;
  onWarning: (message: string) => void;
  onSpawn: (process: StdioProcess) => void;
  /** The connection closed, for whatever reason (also after our own shutdown). */
  onClose: () => void;
  /** The server's tool list changed: here is the new one. */
  onTools: (items: ServerCatalog['tools']) => void;
  /** The server's resource or prompt list changed: walk it again. */
  onListStale: (kind: 'resources' | 'prompts') => void;
  clientFeatures?: ClientFeatures;
  onWire?: WireTap;
}

/** A transport and its client, from spawn to shutdown. */
export class ServerSession {
  readonly client: HostClient;
  readonly transport: SessionTransport;
  /** We initiated the end of this session: its close is not a crash. */
  closing = false;
  /** Became ready: from now on a close is a crash (before, the start path handles it). */
  ready = false;
  /** Set (by `markCrashed`) when the session died under us; in-flight requests report it. */
  crash: CrashInfo | undefined;
  /** Resolves when `markCrashed` is called. */
  readonly crashed: Promise<CrashInfo>;
  private resolveCrashed!: (crash: CrashInfo) => void;
  /** Pings the server while ready (legacy era). Stopped by `shutdown()`. */
  health: HealthMonitor | undefined;
  private shutdownPromise: Promise<ShutdownResult | undefined> | undefined;

  constructor(private readonly options: SessionOptions) {
    this.crashed = new Promise((resolve) => (this.resolveCrashed = resolve));
    this.transport = options.spec.remote
      ? new RemoteServerTransport({
          serverName: options.serverName,
          url: new URL(options.spec.remote.url),
          mode: options.remoteMode ?? 'streamable-http',
          headers: options.spec.remote.headers,
          auth: options.remoteAuth,
          onWire: options.onWire,
          onWarning: options.onWarning,
        })
      : this.stdioTransport(options);
    this.client = new HostClient(
      options.clientInfo,
      {
        capabilities: options.clientFeatures?.capabilities ?? {},
        // Probe with server/discover, fall back to initialize: works with 2025 and 2026 servers.
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
        // One copy of each catalog: Patchbay's (see response-cache.ts); output schemas compiled per tool, on its first call.
        responseCacheStore: new ProbeOnlyCacheStore(),
        jsonSchemaValidator: SCHEMA_VALIDATOR,
        listChanged: listChangedHandlers(
          options.onTools,
          options.onListStale,
          (kind, error) => options.onWarning(`Server "${options.serverName}": refreshing its ${kind} failed: ${error.message}`),
          options.listChangedDebounceMs,
        ),
      },
      options.clientFeatures?.wrapHandler,
    );
    options.clientFeatures?.install(this.client);
    this.client.onerror = (error) => options.onWarning(error.message);
    this.client.onclose = options.onClose;
  }

  private stdioTransport(options: SessionOptions): StdioServerTransport {
    return new StdioServerTransport({
      ...options.spec,
      serverName: options.serverName,
      maxMessageBytes: options.maxMessageBytes,
      stderr: options.stderr,
      shutdown: options.shutdown,
      parentEnv: options.parentEnv,
      loginShellPath: options.loginShellPath,
      background: options.background,
      onStderrLine: options.onStderrLine,
      onWarning: (warning) => options.onWarning(warning.message),
      onSpawn: options.onSpawn,
      onWire: options.onWire,
    });
  }

  /** Spawns the process and negotiates the protocol (probe + initialize, or from `prior`). */
  connect(prior: PriorDiscovery | undefined, timeoutMs: number): Promise<void> {
    const connecting = this.client.connect(this.transport, { prior, timeout: timeoutMs });
    // Probing first: the legacy handshake's schemas are built while the server starts, not after its answer.
    if (prior === undefined) this.client.warmLegacySchemasSoon();
    return connecting;
  }

  /** What the handshake told us. Only valid after `connect()` resolved. */
  identity(): ServerIdentity {
    const client = this.client;
    const era = client.getProtocolEra() ?? 'legacy';
    const discover = client.getDiscoverResult();
    return {
      serverInfo: client.getServerVersion(),
      protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
      era,
      capabilities: client.getServerCapabilities() ?? {},
      instructions: client.getInstructions(),
      eraVerdict: era === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' },
      pid: this.transport.pid ?? -1,
    };
  }

  /**
   * Pings the server whenever it has been quiet for `intervalMs`; `onDead` when a ping gets no
   * answer within `timeoutMs`. Stopped by `shutdown()`.
   */
  startHealth(intervalMs: number, timeoutMs: number, now: () => number, onDead: () => void): void {
    this.health = new HealthMonitor({
      intervalMs,
      timeoutMs,
      now,
      lastActivityAt: () => this.transport.lastMessageAt,
      ping: (timeout) => this.client.ping({ timeout }),
      onFailure: onDead,
    });
    this.health.start();
  }

  /** Records how the session died (before it is shut down, so failing requests can say why). */
  markCrashed(crash: CrashInfo): void {
    this.crash ??= crash;
    this.resolveCrashed(this.crash);
  }

  /** Why the connection closed on the server's side, as a sentence naming the server. */
  closeReason(): string {
    const report = this.transport.closeReport;
    const server = `Server "${this.options.serverName}"`;
    switch (report?.reason) {
      case 'process-exited':
        return `${server} exited unexpectedly (${describeExit(report.exit)}).`;
      case 'stdout-closed':
        return `${server} closed its output.`;
      case 'stdin-broken':
        return `${server} stopped reading its input.`;
      case 'connection-lost':
        return `${server}: connection lost (${report.detail ?? 'network error'}).`;
      case 'session-expired':
        return `${server} ended the session (${report.detail ?? 'expired'}).`;
      default:
        return `${server} closed the connection.`;
    }
  }

  /** Stops the process (full escalation) and detaches the client. Idempotent. */
  shutdown(): Promise<ShutdownResult | undefined> {
    this.closing = true;
    this.health?.stop();
    this.shutdownPromise ??= (async () => {
      const result = await this.transport.shutdown();
      await this.client.close().catch(() => {});
      return result;
    })();
    return this.shutdownPromise;
  }
}
