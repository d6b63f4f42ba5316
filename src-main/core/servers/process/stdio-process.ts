/**
 * One server child process: spawned in its own process group with a minimal environment, stderr
 * drained from the first byte, and a shutdown that escalates until the whole group is gone.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { buildChildEnv, getPathVar, withPathVar, type EnvMap } from './child-env';
import { resolveCommand } from './command-resolver';
import { launchErrorFromSpawn } from './launch-error';
import { LINEAGE_VAR, newLineage, sweepLineage } from './lineage-sweep';
import { isGroupAlive, readProcessStartTime, signalGroup } from './process-tree';
import { StderrRing, type StderrRingOptions } from './stderr-ring';
import { BACKGROUND_NICE, setGroupNice } from './start-priority';
import { sleep, withTimeout } from '../wait';

/** What to run. */
export interface ProcessSpec {
  command: string;
  args?: string[];
  /** The server's own configured variables, added to the allow-listed host environment. */
  env?: EnvMap;
  cwd?: string;
  /** Run inside this sandbox (built by core/sandbox/); the command is resolved outside it first. */
  sandbox?: ProcessSandbox;
}

/**
 * A sandbox as the process sees it: it wraps the resolved command in the sandbox's own program
 * (bubblewrap, sandbox-exec). The sandbox area ranks above this one, so it hands the launch this seam.
 */
export interface ProcessSandbox {
  wrap(file: string, args: readonly string[], cwd: string | undefined): { file: string; args: string[]; cwd?: string };
}

/** How a process ended. `signal` is set when it was killed by one. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The last step a shutdown needed: the higher, the less cooperative the server was. */
export type ShutdownStage = 'already-exited' | 'stdin-closed' | 'sigterm' | 'sigkill';

/** How a shutdown went: the exit status and the escalation it took. */
export interface ShutdownResult extends ExitInfo {
  stage: ShutdownStage;
  /** False only if even SIGKILL did not clear the group within `killWaitMs` (stuck in the kernel). */
  groupGone: boolean;
}

/** Timings of the shutdown escalation. */
export interface ShutdownOptions {
  /** After closing stdin, how long the server gets to exit on its own (default 2 s). */
  stdinGraceMs?: number;
  /** After SIGTERM to the group, how long before SIGKILL (default 2 s). */
  termGraceMs?: number;
  /** After SIGKILL, how long to wait for the group to disappear (default 5 s). */
  killWaitMs?: number;
}

/** Default shutdown timings: 2 s after closing stdin, 2 s after SIGTERM. */
export const SHUTDOWN_DEFAULTS = { stdinGraceMs: 2000, termGraceMs: 2000, killWaitMs: 5000 } as const;

/** Callbacks and limits for a spawned server process. */
export interface StdioProcessOptions {
  onStdout: (chunk: Buffer) => void;
  onStdoutEnd: () => void;
  /** The child exited (expectedly or not). Called once. */
  onExit?: (exit: ExitInfo) => void;
  /** Writing to stdin failed (EPIPE: the server closed its stdin or died). */
  onStdinError?: (error: Error) => void;
  stderr?: StderrRingOptions;
  /** Host environment to take the allow-listed variables from (default process.env). */
  parentEnv?: NodeJS.ProcessEnv;
  /** Login-shell PATH supplier (default: the cached `$SHELL -ilc` lookup). */
  loginShellPath?: () => Promise<string[]>;
  /** Start at background CPU priority (see start-priority.ts) until `toForeground()`. */
  background?: boolean;
}

/** A running (or exited) server process. Create with {@link StdioProcess.spawn}. */
export class StdioProcess {
  /** Everything the server wrote to stderr, bounded. */
  readonly stderr: StderrRing;
  /** Resolves when the direct child has exited. */
  readonly exited: Promise<ExitInfo>;
  /**
   * Resolves when the child has exited *and* its stdout/stderr are drained. May never resolve if a
   * grandchild keeps the pipes open: always wait on it with a bound.
   */
  readonly drained: Promise<void>;
  /** /proc start time (Linux) or `ps` lstart (macOS) of the child, for the leftover reaper. */
  readonly startTime: string | undefined;
  private exitInfo: ExitInfo | undefined;
  /** Writes are being gathered until the end of this tick (see `write`). */
  private corked = false;
  private shutdownPromise: Promise<ShutdownResult> | undefined;
  /** Runs at background priority (see `toForeground`). */
  private lowered: boolean;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    /** Absolute path of the executable that was spawned. */
    readonly file: string,
    options: StdioProcessOptions,
    /** The mark its descendants carry (see lineage-sweep.ts). */
    private readonly lineage?: string,
  ) {
    // Drain stderr synchronously after spawn, before any await: from the very first byte.
    this.stderr = new StderrRing(options.stderr);
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.stderr.on('end', () => this.stderr.end());
    child.stdout.on('data', options.onStdout);
    child.stdout.on('end', options.onStdoutEnd);
    // Without 'error' listeners an EPIPE on a dead server's stdin would crash the host.
    child.stdin.on('error', (error) => options.onStdinError?.(error));
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});
    child.on('error', () => {}); // spawn failures are handled in spawn(); later ones (kill) are moot
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        options.onExit?.(this.exitInfo);
        resolve(this.exitInfo);
      });
    });
    this.drained = new Promise((resolve) => child.once('close', () => resolve()));
    this.startTime = child.pid === undefined ? undefined : readProcessStartTime(child.pid);
    // Before it runs much: the boot is what competes with the app for the CPU.
    this.lowered = options.background === true && child.pid !== undefined && setGroupNice(child.pid, BACKGROUND_NICE);
  }

  /** Back to normal CPU priority (the server is ready); nothing when it never left it. */
  toForeground(): void {
    if (!this.lowered) return;
    this.lowered = false;
    if (this.alive) setGroupNice(this.pid, 0);
  }

  /**
   * Resolves the command (see `resolveCommand`), builds the environment and spawns the server.
   * Rejects with a `LaunchError` (launch-error.ts) whose message is fit for the user.
   */
  static async spawn(spec: ProcessSpec, options: StdioProcessOptions): Promise<StdioProcess> {
    const platform = process.platform;
    const parentEnv = options.parentEnv ?? process.env;
    const resolved = await resolveCommand(spec.command, {
      cwd: spec.cwd,
      configuredPath: spec.env ? getPathVar(spec.env, platform) : undefined,
      inheritedPath: getPathVar(parentEnv, platform),
      loginShellPath: options.loginShellPath,
    });
    const env = withPathVar(buildChildEnv(parentEnv, spec.env, platform), resolved.pathEnv, platform);
    // Marks every descendant, so a shutdown finds those that left the process group (lineage-sweep.ts).
    const lineage = newLineage();
    env[LINEAGE_VAR] = lineage;
    const launch: { file: string; args: string[]; verbatim: boolean; cwd?: string } = spec.sandbox
      ? { ...spec.sandbox.wrap(resolved.file, spec.args ?? [], spec.cwd), verbatim: false }
      : windowsLaunch(resolved.file, spec.args ?? [], platform, env);
    const details = { command: spec.command, file: resolved.file, searched: resolved.searched, ...(spec.cwd ? { cwd: spec.cwd } : {}) };

    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(launch.file, launch.args, {
        // Inside a sandbox the launch says where to run (the configured folder may be outside it):
        // bubblewrap changes directory itself, sandbox-exec is spawned there.
        cwd: spec.sandbox ? launch.cwd : spec.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Own process group (POSIX): one signal reaches every grandchild, and Ctrl-C in the
        // host's terminal does not hit the servers directly.
        detached: platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: launch.verbatim,
      });
    } catch (error) {
      throw launchErrorFromSpawn(spec.command, error as NodeJS.ErrnoException, details);
    }
    const proc = new StdioProcess(child, resolved.file, options, lineage);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(launchErrorFromSpawn(spec.command, error, details)));
    });
    return proc;
  }

  /** The child's pid (always set: spawn() only returns after a successful spawn). */
  get pid(): number {
    return this.child.pid as number;
  }

  /** The process group id (= pid, POSIX), or undefined on Windows. */
  get pgid(): number | undefined {
    return process.platform === 'win32' ? undefined : this.child.pid;
  }

  /** Exit status once the child has exited. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** True until the child's 'exit' event (never a `kill(pid, 0)` guess). */
  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  /**
   * Writes to the server's stdin; resolves once handed to the OS. Writes of the same tick go out
   * together, in order, in one system call (the stream is corked until the tick's callbacks ran):
   * 32 calls sent at once cost one write, not 32.
   */
  write(data: string): Promise<void> {
    const stdin = this.child.stdin;
    if (!this.alive || stdin.destroyed || stdin.writableEnded) return Promise.reject(new Error('the server process is not running'));
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    return new Promise((resolve, reject) => stdin.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /**
   * Stops the server politely, then less so: close stdin → wait → SIGTERM the group → wait →
   * SIGKILL the group. Resolves when the child and every other member of its group are gone (or
   * `killWaitMs` after SIGKILL). Idempotent: later calls share the first call's result.
   */
  shutdown(options: ShutdownOptions = {}): Promise<ShutdownResult> {
    // Once the group is gone, what left it (a setsid daemon) goes too: it must not outlive its server.
    this.shutdownPromise ??= this.runShutdown({ ...SHUTDOWN_DEFAULTS, ...options }).finally(() => {
      if (this.lineage) sweepLineage(this.lineage);
    });
    return this.shutdownPromise;
  }

  /**
   * After an unexpected exit: the child is gone but grandchildren may still hold resources (or
   * our stdout pipe). SIGTERM, then SIGKILL, whatever is left of the group.
   */
  killLeftovers(options: ShutdownOptions = {}): Promise<ShutdownResult> {
    return this.shutdown({ ...options, stdinGraceMs: 0 });
  }

  private async runShutdown(options: Required<ShutdownOptions>): Promise<ShutdownResult> {
    const result = (stage: ShutdownStage, groupGone: boolean): ShutdownResult => ({
      ...(this.exitInfo ?? { code: null, signal: null }),
      stage,
      groupGone,
    });
    if (!this.alive && !this.groupAlive()) return result('already-exited', true);

    this.child.stdin.end();
    if (await this.waitGone(options.stdinGraceMs)) return result('stdin-closed', true);
    signalGroup(this.pid, 'SIGTERM');
    if (await this.waitGone(options.termGraceMs)) return result('sigterm', true);
    signalGroup(this.pid, 'SIGKILL');
    return result('sigkill', await this.waitGone(options.killWaitMs));
  }

  private groupAlive(): boolean {
    return this.pgid !== undefined && isGroupAlive(this.pgid);
  }

  /** Waits up to `ms` for the child's exit event and then for the rest of its group. */
  private async waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    if (this.alive && !(await withTimeout(this.exited, ms))) return false;
    // Grandchildren usually die with the leader (one group signal): poll tightly at first, then back off.
    const tightUntil = Date.now() + 100;
    while (this.groupAlive()) {
      const now = Date.now();
      if (now >= deadline) return false;
      await sleep(now < tightUntil ? 5 : 25);
    }
    return true;
  }
}

/**
 * Windows cannot execute `.cmd`/`.bat` files (npx.cmd) directly, and Node refuses to since
 * CVE-2024-27980; they have to go through cmd.exe with explicit quoting.
 */
function windowsLaunch(
  file: string,
  args: string[],
  platform: NodeJS.Platform,
  env: EnvMap,
): { file: string; args: string[]; verbatim: boolean } {
  if (platform !== 'win32' || !/\.(cmd|bat)$/i.test(path.extname(file))) return { file, args, verbatim: false };
  const quote = (value: string) => `"${value.replace(/(["^&|<>%!])/g, '^$1')}"`;
  const line = [file, ...args].map(quote).join(' ');
  const comspec = Object.entries(env).find(([key]) => key.toUpperCase() === 'COMSPEC')?.[1] ?? 'cmd.exe';
  return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], verbatim: true };
}
