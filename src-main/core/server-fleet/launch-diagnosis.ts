/**
 * "Diagnose": a server's launch re-run step by step in a process of its own — configuration, working
 * directory, finding the command, checking it can run, spawning it, the MCP handshake, listing its
 * tools — each step reported as it ends with what it found (timing, exit status, stderr, the folders
 * searched). It never touches the supervised connection, and stops what it started before resolving.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Implementation } from '@modelcontextprotocol/client';
import { formatCommandLine, type DiagnosisStep, type LaunchProblem, type ServerDiagnosis } from '@contract';
import type { SecretBox } from '../secrets/secret-box';
import type { StoredServer } from '../server-config/server-config-repository';
import { ServerSession } from '../servers/connection/server-session';
import { describeExit, formatDuration } from '../servers/connection/server-state';
import { getPathVar } from '../servers/process/child-env';
import { resolveCommand } from '../servers/process/command-resolver';
import { LaunchError } from '../servers/process/launch-error';
import { waitFor } from '../servers/wait';
import { launchProblemOf } from '../servers/process/launch-problem';
import type { ShutdownOptions, StdioProcess } from '../servers/process/stdio-process';
import type { RemoteAuth } from '../servers/transport/remote-auth';
import { buildLaunchConfig, type LaunchOverride } from './launch-spec';
import type { ServerConfig } from '../servers/connection/server-connection';

export interface DiagnosisOptions {
  runId: string;
  server: StoredServer;
  secrets: SecretBox;
  launchOverride?: LaunchOverride;
  parentEnv?: NodeJS.ProcessEnv;
  loginShellPath?: () => Promise<string[]>;
  remoteAuth?: RemoteAuth;
  shutdown?: ShutdownOptions;
  clientInfo: Implementation;
  /** The handshake's deadline (the server's initialize timeout). */
  handshakeMs: number;
  /** How long `server/discover` may stay unanswered before initialize is tried. */
  probeMs: number;
  /** The tool list's deadline (the server's request timeout). */
  requestMs: number;
  now(): Date;
  /** Removes secrets from what the server wrote or what failed (the same redaction as its logs). */
  redact(text: string): string;
  /** The report so far, after every step. */
  onProgress(diagnosis: ServerDiagnosis): void;
  /** Aborted when Patchbay quits: the process is stopped at once. */
  signal?: AbortSignal;
  /** The process exists (to record it for the leftover reaper until it is stopped). */
  onSpawn?(proc: StdioProcess): void;
  /** The process is gone. */
  onEnded?(pid: number): void;
  /** A sandboxed server: the diagnosis runs it in its sandbox, as it will run (absent: unsandboxed). */
  sandbox?: DiagnosisSandbox;
}

/** How the diagnosis puts a sandboxed server in its sandbox, and reads what the sandbox did. */
export interface DiagnosisSandbox {
  /** The launch config inside its sandbox; rejects with a message for the user when it cannot be. */
  apply(config: ServerConfig): Promise<ServerConfig>;
  /** "Sandboxed: sees 2 shared folders; network blocked", once applied. */
  summary(): string;
  /** What the sandbox explains of a failure, from the server's last stderr lines (a path outside it, a registry it cannot reach). */
  explain(stderr: readonly string[]): string | undefined;
  /** The paths the sandbox hides or shows read-only that the launch names or (from stderr) failed on, when any. */
  paths(stderr?: readonly string[]): ServerDiagnosis['sandboxPaths'];
  /** The diagnosis is over and its process gone: the sandbox's proxy can close. */
  release(): void;
}

/** Stderr lines kept per step. */
const OUTPUT_LINES = 12;
/** Tool names listed in the tools step. */
const TOOLS_NAMED = 12;

type StepId = DiagnosisStep['id'];

const STDIO_STEPS: [StepId, string][] = [
  ['config', 'Read the configuration'],
  ['cwd', 'Check the working directory'],
  ['resolve', 'Find the command'],
  ['executable', 'Check it can be run'],
  ['sandbox', 'Build its sandbox'],
  ['spawn', 'Start the process'],
  ['initialize', 'MCP handshake'],
  ['tools', 'List its tools'],
];
const REMOTE_STEPS: [StepId, string][] = [
  ['config', 'Read the configuration'],
  ['connect', 'Reach the server and do the MCP handshake'],
  ['tools', 'List its tools'],
];

/** The report being built: steps in order, each settled once, pushed after every change. */
class Report {
  readonly diagnosis: ServerDiagnosis;
  private startedAt = 0;
  /** Opened secret values of this launch: never shown, whatever the server echoes. */
  secrets: string[] = [];

  constructor(
    private readonly o: DiagnosisOptions,
    plan: [StepId, string][],
  ) {
    this.diagnosis = {
      runId: o.runId,
      serverId: o.server.id,
      serverName: o.server.name,
      startedAt: o.now().toISOString(),
      done: false,
      ok: false,
      steps: plan.map(([id, title]) => ({ id, title, status: 'skipped', detail: 'Not tried yet.' })),
    };
  }

  begin(id: StepId): void {
    this.startedAt = this.o.now().getTime();
    this.set(id, { status: 'running', detail: 'Running…' });
  }

  ok(id: StepId, detail: string, extra: Partial<DiagnosisStep> = {}): void {
    this.set(id, { status: 'ok', detail, durationMs: this.elapsed(), ...extra });
  }

  /** A failed step; every later step is marked as not tried. */
  fail(id: StepId, detail: string, extra: Partial<DiagnosisStep> = {}, problem?: LaunchProblem): ServerDiagnosis {
    this.set(id, { status: 'failed', detail, durationMs: this.elapsed(), ...extra }, false);
    const at = this.diagnosis.steps.findIndex((step) => step.id === id);
    for (const step of this.diagnosis.steps.slice(at + 1)) step.detail = 'Not tried: an earlier step failed.';
    if (problem) this.diagnosis.problem = problem;
    return this.finish(false);
  }

  /** What the sandbox hides that the launch needs (kept when there is something to offer). */
  sandboxPaths(paths: ServerDiagnosis['sandboxPaths']): void {
    if (paths && (paths.blockedPath || paths.pathNotes?.length)) this.diagnosis.sandboxPaths = paths;
  }

  finish(ok: boolean): ServerDiagnosis {
    this.diagnosis.done = true;
    this.diagnosis.ok = ok;
    this.push();
    return this.diagnosis;
  }

  private elapsed(): number {
    return Math.max(0, this.o.now().getTime() - this.startedAt);
  }

  private set(id: StepId, change: Partial<DiagnosisStep>, push = true): void {
    const step = this.diagnosis.steps.find((candidate) => candidate.id === id)!;
    Object.assign(step, change);
    if (change.detail) step.detail = this.clean(change.detail);
    if (change.output) step.output = change.output.map((line) => this.clean(line));
    if (change.list) step.list = change.list.map((line) => this.clean(line));
    if (push) this.push();
  }

  private clean(text: string): string {
    let cleaned = this.o.redact(text);
    for (const secret of this.secrets) if (secret.length >= 4) cleaned = cleaned.split(secret).join('••••••');
    return cleaned;
  }

  private push(): void {
    // A copy: the renderer must not see later mutations of an object it already has.
    this.o.onProgress(structuredClone(this.diagnosis));
  }
}

/** Runs the diagnosis; never rejects (a failure is a failed step). */
export async function diagnoseLaunch(o: DiagnosisOptions): Promise<ServerDiagnosis> {
  const remote = o.server.transport === 'http';
  const plan = remote ? REMOTE_STEPS : STDIO_STEPS.filter(([id]) => id !== 'sandbox' || o.sandbox);
  const report = new Report(o, plan);

  report.begin('config');
  let config;
  try {
    config = await buildLaunchConfig(o.server, o.secrets, o.launchOverride);
  } catch (error) {
    return report.fail('config', `The configuration cannot be used: ${(error as Error).message}`);
  }
  const sealed = new Set([...o.server.env, ...o.server.headers].filter((pair) => pair.sealed).map((pair) => pair.key));
  report.secrets = [...Object.entries(config.env ?? {}), ...Object.entries(config.remote?.headers ?? {})]
    .filter(([key]) => sealed.has(key))
    .map(([, value]) => value);
  report.ok('config', remote ? `URL ${config.remote!.url}` : `Command line: ${formatCommandLine(config.command, config.args ?? [])}`);

  if (!remote) {
    const cwd = config.cwd ?? process.cwd();
    report.begin('cwd');
    const folder = statOf(cwd);
    if (!folder?.isDirectory()) {
      const problem = launchProblemOf(new LaunchError('cwd-missing', '', { details: { command: config.command, cwd } }));
      return report.fail('cwd', folder ? `${cwd} is not a folder.` : `${cwd} does not exist.`, {}, problem);
    }
    report.ok('cwd', cwd);

    report.begin('resolve');
    let file: string;
    let searched: string[];
    try {
      ({ file, searched } = await resolveCommand(config.command, {
        cwd,
        configuredPath: config.env ? getPathVar(config.env) : undefined,
        inheritedPath: getPathVar(o.parentEnv ?? process.env),
        loginShellPath: o.loginShellPath,
      }));
    } catch (error) {
      if (!(error instanceof LaunchError)) return report.fail('resolve', (error as Error).message);
      const problem = launchProblemOf(error);
      const list = error.details?.searched?.length ? { list: error.details.searched } : {};
      if (error.code !== 'not-executable') return report.fail('resolve', error.message, list, problem);
      report.ok('resolve', `Found ${error.details?.file ?? config.command}`, list);
      report.begin('executable');
      return report.fail('executable', error.message, {}, problem);
    }
    const found = searched.length > 0 ? `${config.command} → ${file} (searched ${searched.length} folders in order)` : file;
    report.ok('resolve', found, searched.length > 0 ? { list: searched } : {});

    report.begin('executable');
    report.ok('executable', `${file} ${process.platform === 'win32' ? 'is a file Windows can run' : `can be run (${modeOf(file)})`}`);

    if (o.sandbox) {
      // Run the way it will run: a server that only fails inside its sandbox must fail here too.
      report.begin('sandbox');
      try {
        config = await o.sandbox.apply(config);
      } catch (error) {
        return report.fail('sandbox', (error as Error).message);
      }
      report.ok('sandbox', `${o.sandbox.summary()}. The steps below run inside it, as the server will.`);
      report.sandboxPaths(o.sandbox.paths());
    }
  }

  return handshake(o, report, config, remote);
}

/** Spawn (stdio), handshake and tool list over a fresh session, then stop it. */
async function handshake(
  o: DiagnosisOptions,
  report: Report,
  config: Awaited<ReturnType<typeof buildLaunchConfig>>,
  remote: boolean,
): Promise<ServerDiagnosis> {
  const stderr: string[] = [];
  const warnings: string[] = [];
  const handshakeStep: StepId = remote ? 'connect' : 'initialize';
  let spawned = false;
  const session = new ServerSession({
    serverName: o.server.name,
    spec: config,
    remoteAuth: o.remoteAuth,
    clientInfo: o.clientInfo,
    probeTimeoutMs: Math.min(o.probeMs, o.handshakeMs),
    listChangedDebounceMs: 300,
    shutdown: o.shutdown,
    parentEnv: o.parentEnv,
    loginShellPath: o.loginShellPath,
    onStderrLine: (line) => {
      stderr.push(line);
      if (stderr.length > OUTPUT_LINES) stderr.shift();
    },
    onWarning: (message) => warnings.length < 20 && warnings.push(message),
    onSpawn: (proc) => {
      spawned = true;
      o.onSpawn?.(proc);
      report.ok('spawn', `pid ${proc.pid}`);
      report.begin('initialize');
    },
    onClose: () => {},
    onTools: () => {},
    onListStale: () => {},
  });
  report.begin(remote ? 'connect' : 'spawn');
  let expired = false;
  // Past the deadline the session is shut down, which ends the handshake with the process's last words.
  const deadline = setTimeout(() => {
    expired = true;
    void session.shutdown();
  }, o.handshakeMs);
  const abort = () => void session.shutdown();
  o.signal?.addEventListener('abort', abort);
  try {
    try {
      await session.connect(undefined, o.handshakeMs);
    } catch (error) {
      if (!remote && !spawned)
        return report.fail('spawn', (error as Error).message, {}, error instanceof LaunchError ? launchProblemOf(error) : undefined);
      // A process that dies at once breaks the pipe (EPIPE) before its exit is reported, which waits for
      // its last output: give the report a moment, so the step names the exit rather than the pipe.
      if (!remote) await waitFor(() => session.transport.closeReport, { timeoutMs: 1000, what: 'the close report' }).catch(() => undefined);
      const explained = o.sandbox?.explain(stderr);
      report.sandboxPaths(o.sandbox?.paths(stderr));
      return report.fail(
        handshakeStep,
        handshakeFailure(session, error, expired, o.handshakeMs, o.signal?.aborted) + (explained ? ` ${explained}` : ''),
        outputOf(stderr, warnings),
      );
    } finally {
      clearTimeout(deadline);
    }
    const identity = session.identity();
    const info = identity.serverInfo ? `${identity.serverInfo.name} ${identity.serverInfo.version}` : 'a server that gave no name';
    report.ok(
      handshakeStep,
      `${info} speaks MCP ${identity.protocolVersion}${identity.era === 'modern' ? ' (stateless)' : ''}`,
      outputOf(stderr, warnings),
    );

    report.begin('tools');
    if (!identity.capabilities.tools) {
      report.ok('tools', 'It offers no tools (it did not declare the tools capability).');
      return report.finish(true);
    }
    try {
      const { tools } = await session.client.listTools({}, { timeout: o.requestMs });
      const names = tools.slice(0, TOOLS_NAMED).map((tool) => tool.name);
      const more = tools.length > names.length ? `, and ${tools.length - names.length} more` : '';
      report.ok(
        'tools',
        `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}${names.length > 0 ? `: ${names.join(', ')}${more}` : ''}`,
      );
    } catch (error) {
      return report.fail('tools', `tools/list failed: ${(error as Error).message}`, outputOf(stderr, warnings));
    }
    return report.finish(true);
  } finally {
    o.signal?.removeEventListener('abort', abort);
    const result = await session.shutdown().catch(() => undefined);
    const pid = session.transport.pid;
    if (pid !== undefined && result?.groupGone !== false) o.onEnded?.(pid);
    o.sandbox?.release();
  }
}

/** Why the handshake failed, from how the connection ended. */
function handshakeFailure(session: ServerSession, error: unknown, expired: boolean, handshakeMs: number, aborted = false): string {
  if (aborted) return 'Stopped: Patchbay is quitting.';
  const closed = session.transport.closeReport;
  if (closed?.reason === 'process-exited') return `The process exited during the handshake (${describeExit(closed.exit)}).`;
  if (closed?.reason === 'stdout-closed') return 'The process closed its output during the handshake.';
  if (expired) return `No answer to the handshake within ${formatDuration(handshakeMs)}; the process was stopped.`;
  if (closed?.reason === 'connection-lost') return `The connection was lost: ${closed.detail ?? 'network error'}.`;
  return `The handshake failed: ${(error as Error)?.message ?? String(error)}`;
}

function outputOf(stderr: string[], warnings: string[]): Partial<DiagnosisStep> {
  return {
    ...(stderr.length > 0 ? { output: [...stderr] } : {}),
    ...(warnings.length > 0 ? { list: warnings } : {}),
  };
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** The file's permission bits as `ls` shows them (`rwxr-xr-x`). */
function modeOf(file: string): string {
  const mode = statOf(file)?.mode ?? 0;
  const bits = ['r', 'w', 'x'];
  let text = '';
  for (let shift = 6; shift >= 0; shift -= 3) for (let i = 0; i < 3; i++) text += mode & (1 << (shift + 2 - i)) ? bits[i] : '-';
  return `${path.basename(file)} is ${text}`;
}
