import os from 'node:os';
import { HostCallError, type ServerDiagnosis, type ServerView } from '@contract';
import type { StoredServer } from '../server-config/server-config-repository';
import { toConfigView } from '../server-config/server-config-repository';
import type { RemoteServerRef, ServerControl } from '../servers/transport/remote-auth';
import { isReady, type LiveServer, type ReadyServer } from '../servers/connection/live-server';
import { REMOTE_RESTART } from '../servers/connection/restart-policy';
import { ServerConnection } from '../servers/connection/server-connection';
import { diagnoseStoredServer } from './diagnose-server';
import type { ServerFleetOptions } from './fleet-options';
import { clientFeaturesFor, launchInfo, notifyPlugins, streamObservers, type ServerRef } from './connection-plugins';
import { buildLaunchConfig, parseEraVerdict } from './launch-spec';
import { toRuntimeView } from './runtime-view';

/** Default launches in flight: enough to keep every core busy while others wait on their handshake. */
export function defaultStartConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PATCHBAY_START_CONCURRENCY);
  if (Number.isInteger(configured) && configured > 0) return configured;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(4, 2 * cores);
}

const QUEUED_DETAIL = 'Waiting for other servers to start';

/** A failure before any process existed (a secret that cannot be opened…): shown as Error. */
interface LaunchFailure {
  reason: string;
  since: number;
}

/**
 * Every configured server's live side: one `ServerConnection` per running server, started, stopped
 * and restarted on the user's word (or the config's enabled flag), each state change pushed to the
 * renderer as `serverUpdated`. Configuration lives in the repository; this class owns processes.
 */
export class ServerFleet implements ServerControl {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly launchFailures = new Map<string, LaunchFailure>();
  /** The last view pushed per server: an unchanged view is not pushed again. */
  private readonly published = new Map<string, string>();
  /** Servers waiting in the start queue (id → since), and the queue itself in config order. */
  private readonly queued = new Map<string, number>();
  private readonly startQueue: string[] = [];
  private launching = 0;
  private pumpScheduled = false;
  /** Diagnoses under way, by server: a second click joins the one running. */
  private readonly diagnosing = new Map<string, Promise<ServerDiagnosis>>();
  /** Aborted at quit: a diagnosis under way stops its process. */
  private readonly quitting = new AbortController();
  private readonly startConcurrency: number;
  private readonly startSlotMs: number;
  private disposed = false;

  constructor(private readonly options: ServerFleetOptions) {
    this.startConcurrency = Math.max(1, options.startQueue?.concurrency ?? defaultStartConcurrency());
    this.startSlotMs = Math.max(0, options.startQueue?.slotMs ?? 1000);
  }

  /** The organisation's policy as the fleet applies it (adding a server checks it too). */
  get admission(): ServerFleetOptions['admission'] {
    return this.options.admission;
  }

  list(): ServerView[] {
    return this.options.repo.list().map((server) => this.view(server));
  }

  /** Every configured server's id and name, in order: for lists that need no more (a view is built from the config, runtime and sandbox). */
  refs(): ServerRef[] {
    return this.options.repo.list().map(({ id, name }) => ({ id, name }));
  }

  view(server: StoredServer): ServerView {
    const connection = this.connections.get(server.id);
    const failure = this.launchFailures.get(server.id);
    const queuedSince = this.queued.get(server.id);
    const runtime = failure
      ? { status: 'error' as const, reason: failure.reason, since: new Date(failure.since).toISOString() }
      : connection
        ? toRuntimeView(connection.state, connection.catalog, connection.pid)
        : queuedSince !== undefined
          ? { status: 'starting' as const, since: new Date(queuedSince).toISOString(), detail: QUEUED_DETAIL }
          : { status: 'stopped' as const, since: new Date(0).toISOString() };
    const remote = connection?.state.status === 'ready' ? connection.remote : undefined;
    const auth = server.transport === 'http' ? this.options.remoteAuth?.view(server.id) : undefined;
    const sandbox = connection
      ? this.options.sandboxes?.runtime(server.id, 'lastStderr' in runtime ? runtime.lastStderr : undefined)
      : undefined;
    // A package runner that failed in a sandbox which cannot reach its registry: the reason names it.
    const failed = runtime.status === 'error' || runtime.status === 'crashed';
    const named =
      failed && sandbox?.registryNote && runtime.reason ? { ...runtime, reason: `${runtime.reason} ${sandbox.registryNote}` } : runtime;
    return {
      config: toConfigView(server),
      runtime: {
        ...this.redacted(server.id, named),
        ...(remote ? { remote } : {}),
        ...(auth ? { auth } : {}),
        ...(sandbox ? { sandbox } : {}),
      },
    };
  }

  private redacted(id: string, runtime: ServerView['runtime']): ServerView['runtime'] {
    const redact = this.options.redact;
    if (!redact) return runtime;
    return {
      ...runtime,
      ...(runtime.reason ? { reason: redact(id, runtime.reason) } : {}),
      ...(runtime.lastStderr ? { lastStderr: runtime.lastStderr.map((line) => redact(id, line)) } : {}),
    };
  }

  viewById(id: string): ServerView {
    return this.view(this.stored(id));
  }

  /**
   * Starts every enabled server concurrently and returns without waiting: the window never waits for
   * them. They are shown as starting at once and launched through the start queue, in config order.
   */
  startAllEnabled(): void {
    if (this.disposed) return;
    const since = this.options.clock.now().getTime();
    for (const server of this.options.repo.list()) {
      if (!server.enabled || this.queued.has(server.id) || this.connections.has(server.id)) continue;
      this.queued.set(server.id, since);
      this.startQueue.push(server.id);
      this.publish(server.id);
    }
    this.schedulePump();
  }

  /** Launches the next queued server on a later turn of the event loop, if a slot is free. */
  private schedulePump(): void {
    if (this.pumpScheduled || this.disposed || this.startQueue.length === 0) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.disposed || this.launching >= this.startConcurrency) return;
    const id = this.startQueue.shift();
    if (id === undefined) return;
    // Started, stopped or removed by the user meanwhile: nothing to do.
    if (this.queued.delete(id)) {
      this.launching += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        clearTimeout(timer);
        this.launching -= 1;
        this.schedulePump();
      };
      const timer = setTimeout(release, this.startSlotMs);
      timer.unref?.();
      // Among others (more launches in flight or queued): boot at background priority, so the app
      // stays responsive while they take the CPU. A server starting alone runs at normal priority.
      const background = this.launching + this.startQueue.length > 1;
      void this.launch(id, { background })
        .catch(() => undefined)
        .finally(release);
    }
    // One launch per turn: the next one after the event loop had its say.
    this.schedulePump();
  }

  /** Starts (or, if running, restarts) a server with its current configuration. */
  start(id: string): Promise<ServerView> {
    return this.launch(id, { background: false });
  }

  private async launch(id: string, { background }: { background: boolean }): Promise<ServerView> {
    const server = this.stored(id);
    this.queued.delete(id);
    await this.stopConnection(id);
    if (this.disposed) return this.view(server);
    this.launchFailures.delete(id);
    let config;
    try {
      // The organisation's policy first: a server it refuses never spawns; its row says why.
      const refused = this.options.admission?.refusalToStart(server);
      if (refused) throw new Error(refused);
      config = await buildLaunchConfig(server, this.options.secrets, this.options.launchOverride);
      if (this.options.sandboxes) config = await this.options.sandboxes.apply(server, config);
    } catch (error) {
      this.launchFailures.set(id, { reason: (error as Error).message, since: this.options.clock.now().getTime() });
      this.publish(id);
      return this.viewById(id);
    }
    const plugins = this.options.plugins ?? [];
    // Picked per start, not in the constructor: the host adds its plugins after making the fleet.
    const observers = streamObservers(plugins);
    const ref = { id, name: server.name };
    // Observers (the logs' redactor) learn the launch, secrets included, before any output can arrive.
    const secretKeys = new Set([...server.env, ...server.headers].filter((v) => v.sealed).map((v) => v.key));
    notifyPlugins(plugins, 'onLaunch', ref, launchInfo(config, secretKeys));
    const connection = new ServerConnection({
      ...this.options.connectionDefaults,
      config,
      clientFeatures: clientFeaturesFor(plugins, ref),
      onStderrLine: (line) => observers.onStderrLine(ref, line),
      onWire: (direction, message, bytes, json) => observers.onWire(ref, direction, message, bytes, json),
      onWarning: (message) => notifyPlugins(plugins, 'onWarning', ref, message),
      prior: parseEraVerdict(server.eraVerdict),
      timeouts: { ...this.options.connectionDefaults?.timeouts, startMs: server.initTimeoutMs, requestMs: server.requestTimeoutMs },
      restart: {
        ...(server.transport === 'http' ? REMOTE_RESTART : {}),
        ...this.options.connectionDefaults?.restart,
        enabled: server.autoRestart,
      },
      processStore: this.options.processStore,
      remoteAuth:
        server.transport === 'http'
          ? this.options.remoteAuth?.forServer({ id, name: server.name, url: server.url, signInMode: server.signInMode })
          : undefined,
      onStateChange: (state) => {
        if (this.connections.get(id) !== connection) return;
        notifyPlugins(plugins, 'onStateChange', ref, state, connection.pid);
        if (state.status === 'ready' && connection.eraVerdict) this.options.repo.saveEraVerdict(id, JSON.stringify(connection.eraVerdict));
        this.publish(id);
      },
      onCatalogChange: (catalog) => {
        if (this.connections.get(id) !== connection) return;
        notifyPlugins(plugins, 'onCatalogChange', ref, catalog);
        this.publish(id);
      },
    });
    this.connections.set(id, connection);
    this.publish(id);
    await connection.start({ background });
    return this.viewById(id);
  }

  async stop(id: string): Promise<ServerView> {
    this.stored(id);
    this.queued.delete(id);
    this.launchFailures.delete(id);
    await this.stopConnection(id, { keepStoppedState: true });
    this.publish(id);
    return this.viewById(id);
  }

  /**
   * Re-runs a stopped or failed server's launch step by step in a process of its own (see
   * `diagnoseLaunch`), reporting each step to `onProgress`. A running or starting server is refused:
   * a second copy of it could fight the first over its files or ports.
   */
  diagnose(id: string, onProgress: (diagnosis: ServerDiagnosis) => void): Promise<ServerDiagnosis> {
    const server = this.stored(id);
    const running = this.diagnosing.get(id);
    if (running) return running;
    if (this.disposed) throw new HostCallError('internal', 'Patchbay is shutting down.');
    const status = this.viewById(id).runtime.status;
    if (status === 'ready' || status === 'starting')
      throw new HostCallError(
        'invalid_input',
        `"${server.name}" is ${status === 'ready' ? 'running' : 'starting'}: stop it first to diagnose its launch.`,
      );
    const diagnosis = diagnoseStoredServer(server, this.options, { onProgress, signal: this.quitting.signal }).finally(() =>
      this.diagnosing.delete(id),
    );
    this.diagnosing.set(id, diagnosis);
    return diagnosis;
  }

  /** A remote server's name, URL and way of signing in (for the OAuth area); undefined for stdio servers and unknown ids. */
  describe(id: string): RemoteServerRef | undefined {
    const server = this.options.repo.get(id);
    return server?.transport === 'http' ? { id, name: server.name, url: server.url, signInMode: server.signInMode } : undefined;
  }

  /** The server's connection as areas use it, ready or not; undefined when it has not started in this run. */
  connection(id: string): LiveServer | undefined {
    return this.connections.get(id);
  }

  /**
   * The server, ready — or the one error every area gives: no such server, or `Server "<name>" is not
   * running; start it to <toDo>.` (e.g. "read its resources").
   */
  ready(id: string, toDo: string): ReadyServer {
    const connection = this.connections.get(id);
    const name = connection?.name ?? this.options.repo.get(id)?.name;
    if (!name) throw new HostCallError('invalid_input', `No server with id ${id}`);
    if (!isReady(connection)) throw new HostCallError('invalid_input', `Server "${name}" is not running; start it to ${toDo}.`);
    return connection;
  }

  /** The server when it is Ready now, else undefined. */
  readyNow(id: string): ReadyServer | undefined {
    const connection = this.connections.get(id);
    return isReady(connection) ? connection : undefined;
  }

  /** Stops the server's processes, then forgets it (and so do the plugins). */
  async forget(id: string): Promise<void> {
    const name = this.options.repo.get(id)?.name ?? id;
    await this.stopConnection(id);
    this.connections.delete(id);
    this.launchFailures.delete(id);
    this.queued.delete(id);
    this.published.delete(id);
    this.options.remoteAuth?.forget(id);
    notifyPlugins(this.options.plugins ?? [], 'onRemoved', { id, name });
  }

  /** Quit: stop every server in parallel; each stop is bounded by the shutdown escalation. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.queued.clear();
    this.startQueue.length = 0;
    this.quitting.abort();
    await Promise.all([
      ...[...this.connections.keys()].map((id) => this.stopConnection(id, { keepStoppedState: true })),
      ...this.diagnosing.values(),
    ]);
  }

  /** Pushes the server's current view to every renderer. */
  publish(id: string): void {
    const server = this.options.repo.get(id);
    if (!server) return;
    const view = this.view(server);
    const json = JSON.stringify(view);
    if (this.published.get(id) === json) return;
    this.published.set(id, json);
    this.options.events.emit('serverUpdated', view);
  }

  private async stopConnection(id: string, { keepStoppedState = false } = {}): Promise<void> {
    const connection = this.connections.get(id);
    if (!connection) return;
    if (!keepStoppedState) this.connections.delete(id);
    await connection.stop();
  }

  private stored(id: string): StoredServer {
    const server = this.options.repo.get(id);
    if (!server) throw new HostCallError('invalid_input', `No server with id ${id}`);
    return server;
  }
}
