/**
 * Finds the executable for a server's `command`, the way the user's terminal would.
 *
 * A GUI app on macOS starts with a minimal PATH (/usr/bin:/bin:…), so `npx`, `uvx` or a
 * version-managed `node` are "not found" although they work in the terminal. We therefore search
 * PATH augmented with the user's login-shell PATH (read once, cached) and hand the same augmented
 * PATH to the child, so `npx` can in turn find `node`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LaunchError } from './launch-error';

/** Where and how `resolveCommand` looks. */
export interface ResolveCommandOptions {
  /** Working directory of the server; relative commands resolve against it. */
  cwd?: string;
  /** PATH from the server's own configured env, searched first when set. */
  configuredPath?: string;
  /** PATH inherited by the host (process.env.PATH). */
  inheritedPath?: string;
  /** Supplies the login-shell PATH entries; defaults to the cached {@link getLoginShellPath}. */
  loginShellPath?: () => Promise<string[]>;
  /** Windows executable extensions (PATHEXT). */
  pathExt?: string;
  platform?: NodeJS.Platform;
}

/** The executable to spawn and the PATH to give it. */
export interface ResolvedCommand {
  /** Absolute path of the executable to spawn. */
  file: string;
  /** The PATH to give the child: configured, then login shell, then inherited; deduplicated. */
  pathEnv: string;
  /** Directories that were searched (empty when the command was a path). */
  searched: string[];
}

/**
 * Resolves `command` to an executable file, or throws a {@link LaunchError} whose message says
 * what was searched (`npx` not found on PATH (searched: …)), that the working directory is
 * missing, or that the file is not executable.
 */
export async function resolveCommand(command: string, options: ResolveCommandOptions = {}): Promise<ResolvedCommand> {
  const platform = options.platform ?? process.platform;
  const cwd = options.cwd ?? process.cwd();
  checkWorkingDirectory(options.cwd, command);

  const sep = platform === 'win32' ? ';' : ':';
  const login = await (options.loginShellPath ?? getLoginShellPath)().catch(() => []);
  const dirs = dedupe([...split(options.configuredPath, sep), ...login, ...split(options.inheritedPath, sep)]);
  const pathEnv = dirs.join(sep);

  if (command.trim() === '') throw new LaunchError('command-not-found', 'No command configured', { details: { command, searched: [] } });
  const hasSeparator = command.includes('/') || (platform === 'win32' && command.includes('\\'));
  if (hasSeparator || path.isAbsolute(command)) {
    const file = path.resolve(cwd, command);
    const status = probeExecutable(file, platform);
    if (status === 'missing')
      throw new LaunchError('command-not-found', `\`${command}\` not found (looked for ${file})`, { details: { command, searched: [] } });
    if (status === 'not-executable') {
      throw new LaunchError('not-executable', `\`${file}\` is not executable (permission denied, or not a regular file)`, {
        details: { command, file, searched: [] },
      });
    }
    return { file, pathEnv, searched: [] };
  }

  const extensions = platform === 'win32' ? windowsExtensions(command, options.pathExt) : [''];
  let nonExecutable: string | undefined;
  for (const dir of dirs) {
    for (const ext of extensions) {
      const file = path.join(dir, command + ext);
      const status = probeExecutable(file, platform);
      if (status === 'ok') return { file, pathEnv, searched: dirs };
      if (status === 'not-executable') nonExecutable ??= file;
    }
  }
  if (nonExecutable) {
    throw new LaunchError('not-executable', `\`${command}\` was found at ${nonExecutable} but is not executable (permission denied)`, {
      details: { command, file: nonExecutable, searched: dirs },
    });
  }
  throw new LaunchError(
    'command-not-found',
    `\`${command}\` not found on PATH (searched: ${dirs.length > 0 ? dirs.join(', ') : 'no directories'})`,
    { details: { command, searched: dirs } },
  );
}

function checkWorkingDirectory(cwd: string | undefined, command: string): void {
  if (cwd === undefined) return;
  let stat: fs.Stats;
  const details = { command, cwd };
  try {
    stat = fs.statSync(cwd);
  } catch {
    throw new LaunchError('cwd-missing', `Working directory ${cwd} does not exist`, { details });
  }
  if (!stat.isDirectory()) throw new LaunchError('cwd-missing', `Working directory ${cwd} is not a directory`, { details });
}

function probeExecutable(file: string, platform: NodeJS.Platform): 'ok' | 'missing' | 'not-executable' {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'missing';
  }
  if (!stat.isFile()) return 'not-executable';
  if (platform === 'win32') return 'ok'; // Windows has no execute bit; PATHEXT decides.
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

function windowsExtensions(command: string, pathExt: string | undefined): string[] {
  const exts = (pathExt ?? process.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  // `node.exe` is already complete; `npx` needs `.cmd` appended.
  return path.extname(command) ? ['', ...exts] : exts;
}

function split(value: string | undefined, sep: string): string[] {
  return (value ?? '').split(sep).filter((entry) => entry.trim() !== '');
}

function dedupe(entries: string[]): string[] {
  return [...new Set(entries)];
}

// ---------------------------------------------------------------------------------------------
// Login-shell PATH

/** Options of {@link readLoginShellPath}. */
export interface LoginShellPathOptions {
  /** The shell to ask (default: $SHELL). */
  shell?: string;
  /** Give up after this long (default 5 s): a slow or interactive rc file must not block starts. */
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

const MARKER = '__PATCHBAY_PATH__';

/**
 * Runs `$SHELL -ilc` once to read the PATH the user's terminal would have. Never rejects: on any
 * failure (no $SHELL, timeout, non-zero exit) it resolves to `[]` and the inherited PATH is used.
 * The PATH is printed between markers because rc files often print banners to stdout.
 */
export function readLoginShellPath(options: LoginShellPathOptions = {}): Promise<string[]> {
  const platform = options.platform ?? process.platform;
  const shell = options.shell ?? process.env.SHELL;
  if (platform === 'win32' || !shell) return Promise.resolve([]);
  const fish = path.basename(shell) === 'fish';
  const script = fish ? `printf '%s' ${MARKER}(string join : $PATH)${MARKER}` : `printf '%s' "${MARKER}\${PATH}${MARKER}"`;

  return new Promise((resolve) => {
    let output = '';
    let done = false;
    const finish = (entries: string[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(entries);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // Own process group, so a timeout can kill whatever the rc files started too.
      child = spawn(shell, ['-ilc', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return finish([]);
    }
    // Ends the shell's process group: rc files may leave a helper behind holding the pipe open.
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      finish([]);
    }, options.timeoutMs ?? 5000);
    const pathIn = (text: string) => text.match(new RegExp(`${MARKER}(.*)${MARKER}`, 's'))?.[1];
    child.stdout?.on('data', (chunk: Buffer) => {
      if (output.length < 1_000_000) output += chunk.toString('utf8');
      // The PATH is complete once both markers are in: an rc file's background job that keeps stdout
      // open (seen with `pyenv virtualenv-init`) must not make every start wait for the time-out.
      const found = pathIn(output);
      if (found === undefined || done) return;
      finish(split(found.trim(), ':'));
      killGroup();
    });
    child.on('error', () => finish([]));
    child.on('close', () => {
      const found = pathIn(output);
      finish(found === undefined ? [] : split(found.trim(), ':'));
    });
  });
}

let cachedLoginPath: Promise<string[]> | undefined;

/** The login-shell PATH, read once per process (see {@link readLoginShellPath}). */
export function getLoginShellPath(): Promise<string[]> {
  cachedLoginPath ??= readLoginShellPath();
  return cachedLoginPath;
}

/**
 * Where a host's servers get the login-shell PATH from. The desktop app is usually launched from the
 * Dock, Finder or a desktop menu, with a minimal PATH: it asks the login shell (cached, started with
 * the host so the window's load overlaps it). Web mode started from a shell (`npm run web` in a
 * terminal, a script; the shell set `SHLVL`) already has that shell's PATH: asking a login shell again
 * adds nothing but 0.1–0.5 s before the first server can spawn, so it asks only when started some other
 * way (a service manager, a launch agent).
 */
export function loginShellPathFor(mode: 'electron' | 'web', env: NodeJS.ProcessEnv = process.env): () => Promise<string[]> {
  return mode === 'web' && startedFromShell(env) ? noLoginShellPath : getLoginShellPath;
}

/** Finds a program on the host's PATH, then the login shell's (for `uv`): its file, or undefined when it is not there. */
export function commandFinder(loginShellPath: () => Promise<string[]>): (name: string) => Promise<string | undefined> {
  return (name) =>
    resolveCommand(name, { inheritedPath: process.env.PATH, loginShellPath }).then(
      (found) => found.file,
      () => undefined,
    );
}

/** True when a shell started this process (every POSIX shell a terminal runs sets `SHLVL`). */
export function startedFromShell(env: NodeJS.ProcessEnv): boolean {
  return (env.SHLVL ?? '').trim() !== '';
}

const noLoginShellPath = async (): Promise<string[]> => [];
