/**
 * Runs the web-mode host (`node out/main/web.js`) as a child process for one test: its own temporary
 * data directory (unless given), a free port (unless given), and restart on the same port and data
 * directory. Every process started here is killed, and every temp directory removed, in teardown.
 */
import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, WEB_ENTRY } from './paths';

export interface WebHostOptions {
  /** Data directory to use; default: a fresh `data/` (not yet created) inside a new temp directory. */
  dataDir?: string;
  /** Port to listen on; default 0 (a free one, then kept across restarts). */
  port?: number;
  /** How long to wait for the URL line, per start. */
  startTimeoutMs?: number;
  /** How long to wait for a clean exit after SIGTERM before SIGKILL. */
  stopTimeoutMs?: number;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const URL_LINE = /^Patchbay web mode: (http:\/\/\S+)\s*$/m;

/** Children still alive, killed if this process exits without tearing them down (a crashed worker). */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  url: string;
  exited: Promise<ExitStatus>;
  stdout: () => string;
  stderr: () => string;
}

function describeOutput(run: { stdout: () => string; stderr: () => string }): string {
  return `--- stderr ---\n${run.stderr() || '(empty)'}\n--- stdout ---\n${run.stdout() || '(empty)'}`;
}

/** Starts one host process and resolves once it printed its URL; rejects with its output otherwise. */
function spawnHost(port: number, dataDir: string, timeoutMs: number, log: string[]): Promise<Run> {
  const env = { ...process.env };
  delete env.PATCHBAY_DATA_DIR;
  const child = spawn(process.execPath, [WEB_ENTRY, '--no-open', '--port', String(port), '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    log.push(`[pid ${child.pid} stdout] ${chunk}`);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    log.push(`[pid ${child.pid} stderr] ${chunk}`);
  });
  const exited = new Promise<ExitStatus>((resolve) => {
    // 'close', not 'exit': it comes after the output pipes are drained, so nothing printed is lost.
    child.once('close', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  const output = { stdout: () => stdout, stderr: () => stderr };

  return new Promise<Run>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('error', onError);
    };
    const onData = () => {
      const match = URL_LINE.exec(stdout);
      if (!match) return;
      cleanup();
      resolve({ child, url: match[1], exited, ...output });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new Error(`Could not spawn the web host: ${error.message}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`The web host did not print its URL within ${timeoutMs} ms.\n${describeOutput(output)}`));
    }, timeoutMs);
    child.stdout!.on('data', onData);
    child.once('error', onError);
    void exited.then((status) => {
      cleanup();
      reject(
        Object.assign(
          new Error(`The web host exited (code ${status.code}, signal ${status.signal}) before it was ready.\n${describeOutput(output)}`),
          {
            stderr,
          },
        ),
      );
    });
  });
}

export class WebHost {
  /** Everything the host processes printed, in order, across restarts (attached on failure). */
  readonly log: string[] = [];
  /** How the last stopped process ended. */
  lastExit: ExitStatus | undefined;
  private run: Run | undefined;
  private lastRun: Run | undefined;
  private portNumber: number;

  private constructor(
    readonly dataDir: string,
    port: number,
    private readonly tempRoot: string | undefined,
    private readonly options: Required<Pick<WebHostOptions, 'startTimeoutMs' | 'stopTimeoutMs'>>,
  ) {
    this.portNumber = port;
  }

  static async start(options: WebHostOptions = {}): Promise<WebHost> {
    if (!fs.existsSync(WEB_ENTRY)) throw new Error(`${WEB_ENTRY} is missing: run \`npx electron-vite build\` first.`);
    const tempRoot = options.dataDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-'));
    const dataDir = options.dataDir ?? path.join(tempRoot!, 'data');
    const host = new WebHost(dataDir, options.port ?? 0, tempRoot, {
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 15_000,
    });
    try {
      await host.launch();
    } catch (error) {
      await host.dispose();
      throw error;
    }
    return host;
  }

  /** The printed URL, with this launch's token (it changes on every start). */
  get url(): string {
    return this.current().url;
  }

  get origin(): string {
    return new URL(this.current().url).origin;
  }

  get token(): string {
    return new URL(this.current().url).searchParams.get('token') ?? '';
  }

  get port(): number {
    return this.portNumber;
  }

  get pid(): number | undefined {
    return this.run?.child.pid;
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  /** What the current (or last stopped) process printed on stdout. */
  get stdout(): string {
    return (this.run ?? this.lastRun)?.stdout() ?? '';
  }

  /** What the current (or last stopped) process printed on stderr. */
  get stderr(): string {
    return (this.run ?? this.lastRun)?.stderr() ?? '';
  }

  /** SIGTERM, then wait for the exit (SIGKILL after stopTimeoutMs). Resolves with how it ended. */
  async stop(): Promise<ExitStatus> {
    const run = this.run;
    if (!run) return this.lastExit ?? { code: null, signal: null };
    this.run = undefined;
    run.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.options.stopTimeoutMs)));
    const result = await Promise.race([run.exited, timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') {
      run.child.kill('SIGKILL');
      this.lastExit = await run.exited;
      throw new Error(`The web host did not exit within ${this.options.stopTimeoutMs} ms of SIGTERM (killed).\n${describeOutput(run)}`);
    }
    this.lastExit = result;
    return result;
  }

  /** Stops the host if it runs, then starts it again on the same port and data directory. */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  /**
   * Stops whatever still runs and removes the temp directory this host created. Never throws.
   * The host is asked to quit (SIGTERM) rather than killed: its servers live in process groups of
   * their own, so a killed host would leave any that do not exit on a closed stdin running.
   */
  async dispose(): Promise<void> {
    // stop() escalates to SIGKILL itself after stopTimeoutMs; its error is the test's business, not teardown's.
    await this.stop().catch(() => undefined);
    if (this.tempRoot) fs.rmSync(this.tempRoot, { recursive: true, force: true });
  }

  private current(): Run {
    if (!this.run) throw new Error('The web host is not running');
    return this.run;
  }

  private async launch(): Promise<void> {
    // A port we just released can, rarely, still be held for a moment: retry on EADDRINUSE only,
    // until the start timeout, when the port is fixed.
    const deadline = Date.now() + this.options.startTimeoutMs;
    for (;;) {
      try {
        const remaining = Math.max(1_000, deadline - Date.now());
        this.run = await spawnHost(this.portNumber, this.dataDir, remaining, this.log);
        this.lastRun = this.run;
        break;
      } catch (error) {
        const addressInUse = /EADDRINUSE/.test((error as { stderr?: string }).stderr ?? '');
        if (!addressInUse || this.portNumber === 0 || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    this.portNumber = Number(new URL(this.run.url).port);
  }
}

/** `webHost`: a started host per test, torn down (process killed, temp dir removed) afterwards. */
export const test = base.extend<{ webHostOptions: WebHostOptions; webHost: WebHost }>({
  webHostOptions: [{}, { option: true }],
  webHost: async ({ webHostOptions }, use, testInfo) => {
    const host = await WebHost.start(webHostOptions);
    try {
      await use(host);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('web-host-output.txt', { body: host.log.join(''), contentType: 'text/plain' });
      }
      await host.dispose();
    }
  },
});

export { expect } from '@playwright/test';
