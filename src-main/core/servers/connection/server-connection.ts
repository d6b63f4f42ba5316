/**
 * One configured server, supervised: start (spawn + version negotiation + catalog), a state the
 * UI can show, requests with Patchbay's timeout rules, crash detection, optional automatic
 * restarts with backoff, and a stop that leaves no process behind.
 *
 * The work is done by the pieces it composes: `startWithEraFallbacks` (one start), `runRequest`
 * (one request; the MCP methods that send one are `ServerRequests`'), `SessionExpiry` (a 2025 server forgot our session: re-initialize, resend once) and
 * `CrashSupervisor` (crash reporting, automatic restarts with backoff). This class owns the state,
 * the current session and the order of things.
 */
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import { CONNECTION_DEFAULTS, type ConnectionTimeouts, type RemoteTransportMode, type ServerConnectionOptions } from './connection-options';
import { recordFor } from '../process/process-reaper';
import { RemoteServerTransport } from '../transport/remote-transport';
import { CrashSupervisor, crashReport } from './crash-supervisor';
import { ServerRequestError } from './request-errors';
import { runRequest, type RequestCallOptions } from './request-runner';
import { ServerRequests } from './server-requests';
import { fetchCatalog } from './server-catalog';
import type { ServerSession } from './server-session';
import { ContentRefresh, sameItems } from './content-refresh';
import { emptyCatalog, formatDuration, type ContentListKind, type ServerCatalog, type ServerState } from './server-state';
import { SessionExpiry } from './session-expiry';
import { startWithEraFallbacks, type StartAttemptOptions, type StartAttemptOutcome } from './start-attempt';
import type { ExitInfo, ShutdownResult } from '../process/stdio-process';

export type { ConnectionTimeouts, RequestCallOptions, ServerConnectionOptions };
export type { ServerConfig } from './connection-options';
export { CONNECTION_DEFAULTS };

/** The supervised connection to one server. See the module comment. */
export class ServerConnection extends ServerRequests {
  private current: ServerState;
  private session: ServerSession | undefined;
  private catalogValue: ServerCatalog = emptyCatalog();
  private verdict: PriorDiscovery | undefined;
  private readonly timeouts: ConnectionTimeouts;
  private readonly now: () => number;
  private readonly supervisor: CrashSupervisor;
  private readonly expiry: SessionExpiry;
  private startPromise: Promise<ServerState> | undefined;
  private stopping: Promise<unknown> | undefined;
  /** Bumped by stop() and each launch: async work of an older generation discards its results. */
  private generation = 0;
  private lastSession: ServerSession | undefined;
  /** Session teardowns in progress (e.g. after a crash); stop() waits for them. */
  private readonly endings = new Set<Promise<unknown>>();
  /** Remote servers: the HTTP transport that worked last (an old server needs HTTP+SSE every time). */
  private remoteMode: RemoteTransportMode | undefined;
  /** Re-walks a resource, template or prompt list after a list_changed (one walk per list at a time). */
  private readonly contentRefresh: ContentRefresh;
  /** This start boots the server at background CPU priority until it is ready (see `start`). */
  private background = false;

  constructor(private readonly options: ServerConnectionOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.timeouts = { ...CONNECTION_DEFAULTS, ...options.timeouts };
    this.supervisor = new CrashSupervisor(options.restart, {
      now: this.now,
      setState: (state) => this.setState(state),
      generation: () => this.generation,
      endSession: (session) => this.endSession(session),
      relaunch: (attempt) => void this.launch(attempt),
    });
    this.expiry = new SessionExpiry({
      current: () => this.session,
      settled: () => this.startPromise ?? Promise.resolve(this.current),
      drop: (session) => {
        this.session = undefined;
        void this.endSession(session);
      },
      relaunch: () => void this.launch(1),
    });
    this.verdict = options.prior;
    this.current = { status: 'stopped', since: this.now() };
    this.contentRefresh = new ContentRefresh({
      serverName: () => this.name,
      isCurrent: (session) => session === this.session && session.ready && this.current.status === 'ready',
      requestTimeoutMs: () => this.timeouts.requestMs,
      unchanged: (kind, items, note) => this.catalogValue.notes?.[kind] === note && sameItems(this.catalogValue[kind], items),
      apply: (kind, items, note) => {
        const notes = { ...this.catalogValue.notes };
        if (note) notes[kind] = note;
        else delete notes[kind];
        this.catalogValue = { ...this.catalogValue, [kind]: items, notes };
        this.options.onCatalogChange?.(this.catalogValue);
      },
    });
  }

  /** The configured (user-facing) name. */
  get name(): string {
    return this.options.config.name;
  }
  /** The current state; every change is also reported through `onStateChange`. */
  get state(): ServerState {
    return this.current;
  }
  /** Tools, resources and prompts of the current (or last) run. */
  get catalog(): ServerCatalog {
    return this.catalogValue;
  }
  /** The era verdict to persist for the next start (undefined until known). */
  get eraVerdict(): PriorDiscovery | undefined {
    return this.verdict;
  }
  /** Remote servers: the transport and session in use, while connected. */
  get remote(): { transport: RemoteTransportMode; sessionId?: string } | undefined {
    const transport = this.session?.transport;
    if (!(transport instanceof RemoteServerTransport)) return undefined;
    return { transport: transport.mode, ...(transport.sessionId ? { sessionId: transport.sessionId } : {}) };
  }
  /** Pid of the current server process, if one is running. */
  get pid(): number | undefined {
    return this.session?.transport.pid;
  }
  /** The last `n` stderr lines of the current (or last) process. */
  stderrTail(n = 20): string[] {
    return (this.session ?? this.lastSession)?.transport.stderr?.lines(n) ?? [];
  }

  /**
   * Starts the server; resolves with the resulting state (`ready`, `error`, …), never rejects.
   * `background`: one of many servers starting together: its process boots at background CPU
   * priority and returns to normal once ready (see process/start-priority.ts). Restarts after a
   * crash run at normal priority.
   */
  start({ background = false }: { background?: boolean } = {}): Promise<ServerState> {
    if (this.startPromise) return this.startPromise;
    if (this.current.status === 'ready') return Promise.resolve(this.current);
    this.supervisor.reset();
    this.remoteMode = undefined;
    this.background = background;
    return this.launch(1);
  }

  /** Stops the server (shutdown escalation), cancelling any start or scheduled restart. */
  async stop(): Promise<ShutdownResult | undefined> {
    this.generation += 1;
    this.supervisor.reset();
    const session = this.session;
    this.session = undefined;
    const ending = session ? this.endSession(session) : Promise.resolve(undefined);
    this.stopping = Promise.all([ending, ...this.endings]);
    await this.stopping;
    const result = await ending;
    const exit: ExitInfo | undefined = result ? { code: result.code, signal: result.signal } : undefined;
    this.setState({ status: 'stopped', since: this.now(), ...(exit ? { exit } : {}) });
    return result;
  }

  /** Stop, then start. */
  async restart(): Promise<ServerState> {
    await this.stop();
    return this.start();
  }

  /** Re-fetches tools, resources and prompts. */
  async refreshCatalog(options?: RequestCallOptions): Promise<ServerCatalog> {
    const caps = this.current.status === 'ready' ? this.current.server.capabilities : {};
    this.catalogValue = await this.request(
      'the catalog refresh',
      (client, o) => fetchCatalog(client, caps, o, { serverName: this.name }),
      options,
    );
    this.options.onCatalogChange?.(this.catalogValue);
    return this.catalogValue;
  }

  /** Walks one content list again (the user's Refresh, or a list_changed); resolves once the catalog holds the new list. */
  refreshContentList(kind: ContentListKind): Promise<void> {
    const session = this.session;
    if (!session) return Promise.resolve();
    return this.contentRefresh.request(session, kind);
  }

  /** Runs a request on the current session (once more on a new one if the server forgot the session). */
  protected request<T>(label: string, send: Parameters<typeof runRequest<T>>[1], options?: RequestCallOptions): Promise<T> {
    const signal = options?.controller?.signal ?? options?.signal;
    return this.expiry.retry(this.session, (session) => this.requestOn(session, label, send, options), signal);
  }

  private requestOn<T>(
    session: ServerSession | undefined,
    label: string,
    send: Parameters<typeof runRequest<T>>[1],
    options?: RequestCallOptions,
  ): Promise<T> {
    if (!session?.ready || this.current.status !== 'ready') {
      const message = `Server "${this.name}" is not running (${this.current.status}); ${label} was not sent`;
      return Promise.reject(new ServerRequestError('not-ready', message, this.name, label));
    }
    const timeoutMs = options?.timeoutMs ?? this.timeouts.requestMs;
    const maxTotalMs = options?.maxTotalTimeoutMs ?? this.timeouts.requestMaxTotalMs;
    return runRequest(
      {
        serverName: this.name,
        request: label,
        client: session.client,
        timeoutMs,
        maxTotalMs,
        crash: () => session.crash,
        crashed: session.crashed,
      },
      send,
      options,
    );
  }

  private launch(attempt: number): Promise<ServerState> {
    if (attempt > 1) this.background = false;
    const generation = ++this.generation;
    const promise: Promise<ServerState> = this.runStart(attempt, generation).finally(() => {
      if (this.startPromise === promise) this.startPromise = undefined;
    });
    this.startPromise = promise;
    return promise;
  }

  private async runStart(attempt: number, generation: number): Promise<ServerState> {
    const outcome = await startWithEraFallbacks(
      this.attemptOptions(attempt),
      this.verdict,
      () => generation !== this.generation,
      (reason) => this.options.onWarning?.(`Server "${this.name}": the cached protocol era did not work (${reason}); negotiating again`),
    );
    if (generation !== this.generation) {
      await this.stopping; // stop() owns the state now
      return this.current;
    }
    if (outcome.kind === 'ready') return this.becomeReady(outcome);
    this.expiry.startEnded();
    const { reason, exit, stderrTail, refusal, launch } = outcome;
    // Refused for now (429, 503…): wait as asked and try again, at the first start as on a reconnect.
    if (refusal) this.supervisor.onRefusal({ reason, exit, stderrTail }, refusal);
    else if (attempt === 1) this.setState({ status: 'error', since: this.now(), reason, stderrTail, ...(launch ? { launch } : {}) });
    else this.supervisor.onFailure({ reason, exit, stderrTail }, undefined);
    return this.current;
  }

  private attemptOptions(attempt: number): Omit<StartAttemptOptions, 'prior'> {
    const { config } = this.options;
    const t = this.timeouts;
    return {
      serverName: config.name,
      spec: config,
      clientInfo: this.options.clientInfo ?? { name: 'Patchbay', version: '0.1.0' },
      startMs: t.startMs,
      startMaxMs: t.startMaxMs,
      probeMs: t.probeMs,
      requestMs: t.requestMs,
      now: this.now,
      session: {
        remoteMode: this.remoteMode,
        remoteAuth: this.options.remoteAuth,
        listChangedDebounceMs: this.options.listChangedDebounceMs ?? 300,
        maxMessageBytes: this.options.maxMessageBytes,
        stderr: this.options.stderr,
        shutdown: this.options.shutdown,
        parentEnv: this.options.parentEnv,
        loginShellPath: this.options.loginShellPath,
        background: this.background,
        onStderrLine: this.options.onStderrLine,
        onWarning: (message) => this.options.onWarning?.(message),
        clientFeatures: this.options.clientFeatures,
        onWire: this.options.onWire,
        onSpawn: (proc) =>
          void this.storeCall(() => this.options.processStore?.add(recordFor(config.id, proc, config.command, this.now()))),
        onClose: (session) => this.onSessionClosed(session),
        onTools: (session, tools) => {
          if (session !== this.session || !session.ready) return;
          this.catalogValue = { ...this.catalogValue, tools };
          this.options.onCatalogChange?.(this.catalogValue);
        },
        onListStale: (session, kind) => {
          // A resources list_changed also covers templates (the spec has no notification of its own for them).
          const kinds: ContentListKind[] = kind === 'resources' ? ['resources', 'resourceTemplates'] : ['prompts'];
          for (const list of kinds) this.contentRefresh.request(session, list);
        },
      },
      onSession: (session) => {
        this.session = session;
        this.lastSession = session;
      },
      onDetail: (detail) => this.setStarting(attempt, detail),
      endSession: async (session) => {
        await this.endSession(session);
        if (this.session === session) this.session = undefined;
      },
    };
  }

  private becomeReady({ session, identity, catalog }: Extract<StartAttemptOutcome, { kind: 'ready' }>): ServerState {
    session.ready = true;
    // Booted among many at background priority: from now on it serves the user, at normal priority.
    session.transport.process?.toForeground();
    if (session.transport instanceof RemoteServerTransport) this.remoteMode = session.transport.mode;
    this.expiry.startEnded();
    this.catalogValue = catalog;
    this.verdict = identity.eraVerdict;
    this.supervisor.noteReady(this.now());
    this.setState({ status: 'ready', since: this.now(), server: identity });
    this.options.onCatalogChange?.(catalog);
    // Died between its last answer and now: report it like any crash.
    if (session.transport.closeReport) this.onSessionClosed(session);
    else this.startHealth(session, identity.era);
    return this.current;
  }

  private startHealth(session: ServerSession, era: string): void {
    const { pingIntervalMs, pingTimeoutMs } = this.timeouts;
    if (era !== 'legacy' || pingIntervalMs <= 0) return;
    session.startHealth(pingIntervalMs, pingTimeoutMs, this.now, () => {
      if (session !== this.session || session.closing) return;
      this.handleCrash(
        session,
        `Server "${this.name}" did not answer a ping within ${formatDuration(pingTimeoutMs)}; it was considered hung and stopped.`,
      );
    });
  }

  /** The SDK client saw the connection close. Ours to handle only for a ready session we did not close. */
  private onSessionClosed(session: ServerSession): void {
    if (session !== this.session || session.closing || !session.ready) return;
    if (!this.expiry.recover(session)) this.handleCrash(session, session.closeReason());
  }

  private handleCrash(session: ServerSession, reason: string): void {
    const crash = crashReport(session, reason);
    // Set before the shutdown so the requests it fails can say why.
    session.markCrashed(crash);
    this.session = undefined;
    this.supervisor.onFailure(crash, session);
  }

  private endSession(session: ServerSession): Promise<ShutdownResult | undefined> {
    const ending = (async () => {
      const result = await session.shutdown();
      const pid = session.transport.pid;
      // A group that survived SIGKILL stays recorded, so the reaper tries again on next launch.
      if (pid !== undefined && result?.groupGone !== false) await this.storeCall(() => this.options.processStore?.remove(pid));
      return result;
    })();
    this.endings.add(ending);
    void ending.finally(() => this.endings.delete(ending));
    return ending;
  }

  private async storeCall(call: () => void | Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.options.onWarning?.(`Could not update the live-process record of server "${this.name}": ${(error as Error).message}`);
    }
  }

  private setStarting(attempt: number, detail: string): void {
    const since = this.current.status === 'starting' ? this.current.since : this.now();
    this.setState({ status: 'starting', since, detail: this.expiry.startDetail(detail), attempt });
  }

  private setState(state: ServerState): void {
    this.current = state;
    try {
      this.options.onStateChange?.(state);
    } catch (error) {
      this.options.onWarning?.(`A state listener of server "${this.name}" failed: ${(error as Error).message}`);
    }
  }
}
