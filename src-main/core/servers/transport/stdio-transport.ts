/**
 * Our implementation of the SDK `Transport` over a server child process (see `process/stdio-process.ts`):
 * linear newline framing with a size limit, tolerance for junk on stdout, and a close report that
 * says how the process ended.
 *
 * It exposes `pid` and `stderr`, which is also how the SDK recognises a stdio transport (a silent
 * `server/discover` probe then means "legacy server", not "outage").
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { CloseReport, SessionTransport, WireTap } from './session-transport';
import { InboundSequencer } from './inbound-sequencer';
import { LineFramer, type OversizedLine } from './line-framer';
import {
  describeDrops,
  holdKeyOf,
  isNotification,
  NotificationGate,
  peekNotificationMethod,
  peekProgressToken,
  type NotificationBudget,
} from './notification-gate';
import { formatBytes } from '@contract';
import { responseIdOf } from './oversized-response';
import { StdioProcess, type ProcessSpec, type ShutdownOptions, type ShutdownResult } from '../process/stdio-process';
import type { StderrRing, StderrRingOptions } from '../process/stderr-ring';
import { withTimeout } from '../wait';

/**
 * Default largest accepted stdout message (128 MB): room for a 50 MB resource sent as base64 (about
 * 67 MB), which the host previews and slices; beyond it a message is discarded, not the connection.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/** Something odd the server wrote on stdout that was skipped without closing the connection. */
export interface TransportWarning {
  /** `dropped`: notifications over the server's budget were dropped (one warning per interval). */
  kind: 'non-json' | 'not-json-rpc' | 'dropped';
  message: string;
}

/** What to run, limits, and the out-of-band callbacks of a transport. */
export interface StdioTransportOptions extends ProcessSpec {
  /** The user-facing server name, used in every message. */
  serverName: string;
  /** Largest accepted stdout message in bytes (default 128 MB). Larger ones are discarded. */
  maxMessageBytes?: number;
  /** How many notifications per second pass before the excess is dropped or coalesced (see notification-gate.ts). */
  notificationBudget?: NotificationBudget;
  stderr?: Omit<StderrRingOptions, 'onLine'>;
  onStderrLine?: (line: string) => void;
  onWarning?: (warning: TransportWarning) => void;
  /** Called right after a successful spawn (for the live-process record). */
  onSpawn?: (process: StdioProcess) => void;
  /** Sees every message in and out (the protocol log). */
  onWire?: WireTap;
  /** Shutdown escalation timings used by `close()`. */
  shutdown?: ShutdownOptions;
  /** After an unexpected exit, how long to let stdout/stderr drain before reporting the close (default 200 ms). */
  exitFlushMs?: number;
  parentEnv?: NodeJS.ProcessEnv;
  loginShellPath?: () => Promise<string[]>;
  /** Boot at background CPU priority (see process/start-priority.ts). */
  background?: boolean;
}

/** The server sent a message larger than the limit; it was discarded, the connection lives on. */
export class OversizedMessageError extends Error {
  override readonly name = 'OversizedMessageError';
  constructor(
    message: string,
    readonly bytes: number,
    readonly requestId: string | number | undefined,
  ) {
    super(message);
  }
}

/** An SDK `Transport` speaking newline-delimited JSON-RPC to a child process. Single use. */
export class StdioServerTransport implements SessionTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** Why and how the connection ended, once it has. */
  closeReport: CloseReport | undefined;
  /** Date.now() of the last JSON-RPC message received (for idle detection). */
  lastMessageAt = 0;

  private proc: StdioProcess | undefined;
  private started = false;
  private closed = false;
  /** Set once the host asked for the shutdown: the exit that follows is expected. */
  private closing = false;
  private readonly framer: LineFramer;
  private readonly inbound = new InboundSequencer((message) => this.onmessage?.(message));
  private readonly maxBytes: number;
  /** Excess notifications stop here, before they are decoded, parsed, logged or queued. */
  private readonly gate: NotificationGate<Buffer>;
  /** The server closed its stdout or broke its stdin: it is ending by itself. */
  private pipeBroken = false;
  /** Set by `screen` for the line the framer decodes next: a notification that already passed the gate. */
  private screenedNotification = false;

  constructor(private readonly options: StdioTransportOptions) {
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.gate = new NotificationGate<Buffer>({
      budget: options.notificationBudget,
      release: (line) => this.acceptLine(line.toString('utf8'), true),
      holdKey: (method, line) =>
        holdKeyOf(
          method,
          () => peekProgressToken(line),
          () => line.toString('utf8'),
        ),
      // The framer's line is a view into its chunk: a held one is copied.
      hold: (line) => Buffer.from(line),
      onDropped: (report) => this.options.onWarning?.({ kind: 'dropped', message: describeDrops(this.options.serverName, report) }),
    });
    this.framer = new LineFramer({
      maxLineBytes: this.maxBytes,
      screen: (line) => this.screen(line),
      onLine: (line) => this.handleLine(line),
      onOversized: (info) => this.handleOversized(info),
    });
  }

  /** The child's pid once started. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** The server's stderr ring buffer once started (lines, not a stream). */
  get stderr(): StderrRing | undefined {
    return this.proc?.stderr;
  }

  /** The underlying process once started. */
  get process(): StdioProcess | undefined {
    return this.proc;
  }

  /** Spawns the server. Rejects with a `LaunchError` when it cannot be started. */
  async start(): Promise<void> {
    if (this.started) throw new Error(`Transport for server "${this.options.serverName}" was already started`);
    this.started = true;
    this.proc = await StdioProcess.spawn(this.options, {
      parentEnv: this.options.parentEnv,
      loginShellPath: this.options.loginShellPath,
      background: this.options.background,
      stderr: { ...this.options.stderr, onLine: this.options.onStderrLine },
      // Read at full speed even through a flood: the server's answer is queued behind its notifications
      // (in the pipe and in its own buffers), so reading slower would hold the answer back; the excess
      // costs a byte scan each (screen), not a string, a parse, an event or a log row.
      onStdout: (chunk) => this.framer.push(chunk),
      onStdoutEnd: () => {
        this.framer.end();
        this.failUnlessExiting('stdout-closed');
      },
      onStdinError: () => this.failUnlessExiting('stdin-broken'),
      onExit: () => void this.onProcessExit(),
    });
    this.options.onSpawn?.(this.proc);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.proc || this.closed) throw new Error(`Server "${this.options.serverName}" is not running`);
    try {
      const json = JSON.stringify(message);
      this.options.onWire?.('out', message, Buffer.byteLength(json) + 1, json);
      await this.proc.write(`${json}\n`);
    } catch (error) {
      throw new Error(`Could not write to server "${this.options.serverName}": ${(error as Error).message}`, { cause: error });
    }
  }

  /** Stops the server (full shutdown escalation) and reports the close. */
  async close(): Promise<void> {
    await this.shutdown();
  }

  /** Like `close()`, but resolves with how the process ended (undefined if it never started). */
  async shutdown(): Promise<ShutdownResult | undefined> {
    this.closing = true;
    if (!this.proc) {
      this.reportClose({ reason: 'closed-by-host' });
      return undefined;
    }
    // A process that had already exited, or broken its end of the pipe (its exit report still waiting for
    // its last output), ended by itself: the host's close must not take that from the report.
    const exitedByItself = !this.proc.alive || this.pipeBroken;
    const result = await this.proc.shutdown(this.options.shutdown);
    this.reportClose({ reason: exitedByItself ? 'process-exited' : 'closed-by-host', exit: this.proc.exit });
    return result;
  }

  private async onProcessExit(): Promise<void> {
    if (this.closed || this.closing) return;
    // Let what the server wrote just before exiting through (a last response, the stderr line
    // saying why it died); a grandchild holding the pipes open must not delay the report, hence
    // the bound.
    if (this.proc) await withTimeout(this.proc.drained, this.options.exitFlushMs ?? 200);
    this.fail('process-exited');
  }

  /**
   * stdout ended or stdin broke. Usually the process is exiting and its 'exit' event is about to
   * follow (the order is not guaranteed), and the report should carry the exit status; if it does
   * not exit, the server broke the pipe but keeps running: the connection is over all the same.
   */
  private failUnlessExiting(reason: 'stdout-closed' | 'stdin-broken'): void {
    this.pipeBroken = true;
    const proc = this.proc;
    if (proc?.alive) void withTimeout(proc.exited, 500).then(() => proc.alive && this.fail(reason));
  }

  /** The connection broke from the server's side: report at once, clean the group up behind. */
  private fail(reason: CloseReport['reason']): void {
    if (this.closed || this.closing || !this.proc) return;
    this.reportClose({ reason, exit: this.proc.exit });
    void this.proc.killLeftovers(this.options.shutdown);
  }

  private reportClose(report: CloseReport): void {
    if (this.closed) return;
    this.closed = true;
    this.gate.close();
    this.closeReport = report;
    this.onclose?.();
  }

  /** A line that can only be a notification meets the budget before it costs a string or a parse. */
  private screen(line: Buffer): boolean {
    const method = peekNotificationMethod(line);
    this.screenedNotification = method !== undefined;
    if (method === undefined) return true;
    this.lastMessageAt = Date.now();
    return this.gate.admit(method, line);
  }

  private handleLine(line: string): void {
    const gated = this.screenedNotification;
    this.screenedNotification = false;
    this.acceptLine(line, gated);
  }

  /** Parses, checks and delivers one line; `gated`: it already passed the notification budget. */
  private acceptLine(line: string, gated: boolean): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.warn('non-json', `wrote a line to stdout that is not JSON (ignored): ${snippet(line)}`);
      return;
    }
    if (!looksLikeJsonRpc(parsed)) {
      this.warn('not-json-rpc', `wrote JSON to stdout that is not a JSON-RPC message (ignored): ${snippet(line)}`);
      return;
    }
    this.lastMessageAt = Date.now();
    const message = parsed as JSONRPCMessage;
    if (!gated) {
      if (isNotification(message)) {
        // A notification the byte peek missed (an "id" inside its params): gated now, after all.
        if (!this.gate.admit(message.method, Buffer.from(line))) return;
      } else this.gate.beforeOther();
    }
    this.options.onWire?.('in', message, Buffer.byteLength(line) + 1, line);
    this.inbound.push(message);
  }

  private handleOversized(info: OversizedLine): void {
    const id = responseIdOf(info);
    const size = `${formatBytes(info.bytes)} message`;
    const limit = `the ${formatBytes(this.maxBytes)} limit`;
    const what = id === undefined ? '' : ` (the response to request ${JSON.stringify(id)})`;
    this.onerror?.(
      new OversizedMessageError(
        `Server "${this.options.serverName}" sent a ${size}${what}, over ${limit}; it was discarded`,
        info.bytes,
        id,
      ),
    );
    // Fail the waiting request now instead of letting it time out.
    if (id !== undefined) {
      this.gate.beforeOther();
      this.inbound.push({ jsonrpc: '2.0', id, error: { code: -32603, message: `Response discarded: ${size} exceeds ${limit}` } });
    }
  }

  private warn(kind: TransportWarning['kind'], text: string): void {
    this.options.onWarning?.({ kind, message: `Server "${this.options.serverName}" ${text}` });
  }
}

function looksLikeJsonRpc(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  if (typeof message.method === 'string') return true;
  return 'id' in message && ('result' in message || 'error' in message);
}

function snippet(line: string): string {
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
