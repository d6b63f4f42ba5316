import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { LogLevel, LogLevelDelivery } from '@contract';
import type { Clock } from '../clock';
import type { ConnectionPlugin, LaunchInfo, ServerRef } from '../server-fleet/connection-plugins';
import { getPathVar } from '../servers/process/child-env';
import { resolveCommand } from '../servers/process/command-resolver';
import type { ServerIdentity, ServerState } from '../servers/connection/server-state';
import { boundedJson } from './bounded-json';
import { describeSpawn, describeStateChange, StderrEntry, type StateMemory } from './host-events';
import { LogLevels, type LevelSession } from './log-levels';
import type { LogService } from './log-service';
import { ENTRY_OVERHEAD } from './log-record';
import { protocolEntrySize, ProtocolTracker } from './protocol-tracker';
import { StderrGrouper } from './stderr-grouper';

/** Characters of a message's data shown in its one-line text. */
const MESSAGE_PREVIEW_CHARS = 500;

/** What the logs know about one server's current (or last) process life. */
interface ServerFacts extends LevelSession {
  memory: StateMemory;
  tracker: ProtocolTracker;
  launch?: LaunchInfo;
  resolved?: Promise<string | undefined>;
  lastPid?: number;
  /** The last time the server was ready: for diagnostics after a crash. */
  identity?: ServerIdentity;
  /** Its stderr lines, gathered into entries (a stack trace is one). */
  stderr?: StderrGrouper;
}

export interface LogPluginDeps {
  logs: LogService;
  clock: Clock;
  /** The login-shell PATH supplier the spawn uses (default: the cached lookup). */
  loginShellPath?: () => Promise<string[]>;
}

/**
 * The logs' view of every server connection: stderr lines (Output), `notifications/message`
 * (Messages), every JSON-RPC message in and out (Protocol), and what the host did (Host). Declares no
 * client capability: logging is a server capability.
 */
export class LogPlugin implements ConnectionPlugin {
  readonly levels: LogLevels;
  private readonly servers = new Map<string, ServerFacts>();

  constructor(private readonly deps: LogPluginDeps) {
    this.levels = new LogLevels(deps.logs.preferences);
  }

  install(client: Client, server: ServerRef): void {
    const facts = this.facts(server);
    Object.assign(facts, { client, ready: false, era: undefined, declaresLogging: false });
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      const text = typeof data === 'string' ? data : boundedJson(data, MESSAGE_PREVIEW_CHARS, 0).text;
      this.deps.logs.append(server.id, 'messages', { level, text, fields: logger ? { logger } : {}, detail: data });
    });
    this.levels.installPerRequestLevel(client, server.id);
  }

  onLaunch(server: ServerRef, launch: LaunchInfo): void {
    this.deps.logs.setSecrets(server.id, launch.secretValues);
    const facts = this.facts(server);
    facts.launch = launch;
    const plainEnv = Object.fromEntries(launch.env.filter((v) => !v.secret).map((v) => [v.key, v.value ?? '']));
    // Resolved the way the spawn resolves it, for the spawn entry and diagnostics; a failure is the spawn's to report.
    facts.resolved = resolveCommand(launch.command, {
      cwd: launch.cwd || undefined,
      configuredPath: getPathVar(plainEnv),
      inheritedPath: getPathVar(process.env),
      loginShellPath: this.deps.loginShellPath,
    }).then(
      (resolved) => resolved.file,
      () => undefined,
    );
  }

  onStderrLine(server: ServerRef, line: string): void {
    const facts = this.facts(server);
    facts.stderr ??= new StderrGrouper((text) =>
      this.deps.logs.appendLater(server.id, 'output', ENTRY_OVERHEAD + text.length, new StderrEntry(text)),
    );
    facts.stderr.line(line);
  }

  onWire(server: ServerRef, direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, json?: string): void {
    const facts = this.facts(server);
    // Paired now; made (serialized, redacted) only when read: off the path of the message itself.
    const now = this.deps.clock.now().getTime();
    this.deps.logs.appendLater(
      server.id,
      'protocol',
      protocolEntrySize(bytes),
      facts.tracker.track(direction, message, bytes, now, json),
      now,
    );
  }

  onWarning(server: ServerRef, message: string): void {
    this.recordHostEvent(server.id, 'warning', 'warning', message);
  }

  onStateChange(server: ServerRef, state: ServerState, pid?: number): void {
    const facts = this.facts(server);
    // What the server wrote comes before what happened to it.
    facts.stderr?.flush();
    if (state.status === 'starting') this.noticeSpawn(server.id, facts, pid);
    for (const entry of describeStateChange(facts.memory, state, this.deps.clock.now().getTime()))
      this.deps.logs.append(server.id, 'host', entry);
    facts.ready = state.status === 'ready';
    if (state.status !== 'ready') return;
    facts.identity = state.server;
    facts.era = state.server.era === 'modern' ? 'modern' : 'legacy';
    facts.declaresLogging = state.server.capabilities.logging !== undefined;
    const level = this.levels.get(server.id);
    void this.levels.applyAtStart(server.id, facts).then(
      (delivery) => delivery && level && this.recordLevel(server.id, level, delivery),
      (error: Error) => this.recordHostEvent(server.id, 'level', 'warning', `Could not set the log level ${level}: ${error.message}`),
    );
  }

  onRemoved(server: ServerRef): void {
    this.servers.get(server.id)?.stderr?.dispose();
    this.servers.delete(server.id);
    this.levels.forget(server.id);
    this.deps.logs.forgetServer(server.id);
  }

  /** Sets a server's log level (see `LogLevels.set`) and says so in its Host stream. */
  async setLevel(serverId: string, level: LogLevel): Promise<LogLevelDelivery> {
    const delivery = await this.levels.set(serverId, level, this.servers.get(serverId));
    this.recordLevel(serverId, level, delivery);
    return delivery;
  }

  /**
   * Adds a Host-stream entry for a server. Other host areas use this for what the user decided about
   * a server (consent to a tool call, a sampling approval…): `event` names it (e.g. 'consent').
   */
  recordHostEvent(serverId: string, event: string, level: LogLevel, text: string, detail?: unknown): void {
    this.deps.logs.append(serverId, 'host', { level, text, fields: { event }, ...(detail === undefined ? {} : { detail }) });
  }

  /** What diagnostics need to know about a server's launches. */
  async launchFacts(serverId: string): Promise<{ launch?: LaunchInfo; resolvedCommand?: string; identity?: ServerIdentity }> {
    const facts = this.servers.get(serverId);
    if (!facts) return {};
    return { launch: facts.launch, resolvedCommand: await facts.resolved, identity: facts.identity };
  }

  private recordLevel(serverId: string, level: LogLevel, delivery: LogLevelDelivery): void {
    const how = {
      'logging/setLevel': 'sent with logging/setLevel',
      'per-request': 'sent with every request',
      'next-start': 'applied at the next start',
    }[delivery];
    this.recordHostEvent(serverId, 'level', 'info', `Log level ${level} (${how})`);
  }

  /** A starting state with a pid we have not seen: the process was just spawned. */
  private noticeSpawn(serverId: string, facts: ServerFacts, pid: number | undefined): void {
    if (pid === undefined || pid === facts.lastPid) return;
    facts.lastPid = pid;
    facts.tracker.reset();
    const launch = facts.launch;
    if (!launch) return;
    void (facts.resolved ?? Promise.resolve(undefined)).then((resolved) =>
      this.deps.logs.append(serverId, 'host', describeSpawn(pid, launch.command, resolved, launch.args, launch.cwd)),
    );
  }

  private facts(server: ServerRef): ServerFacts {
    let facts = this.servers.get(server.id);
    if (!facts) {
      facts = {
        name: server.name,
        client: undefined,
        ready: false,
        era: undefined,
        declaresLogging: false,
        memory: {},
        tracker: new ProtocolTracker(),
      };
      this.servers.set(server.id, facts);
    }
    facts.name = server.name;
    return facts;
  }
}
