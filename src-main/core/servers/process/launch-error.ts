/**
 * Why a server process could not be started, in words a user can act on.
 *
 * Node's own errors ("spawn npx ENOENT") name neither the PATH that was searched nor the fact
 * that a missing *working directory* also surfaces as ENOENT, so we classify before spawning.
 */

export type LaunchErrorCode =
  /** The command is not on PATH, or the given path does not exist. */
  | 'command-not-found'
  /** The file exists but cannot be executed (permissions, or it is a directory). */
  | 'not-executable'
  /** The configured working directory does not exist or is not a directory. */
  | 'cwd-missing'
  /** Anything else the OS refused (EMFILE, EAGAIN, …). */
  | 'spawn-failed';

/** What the launch looked for and where: what a user needs to fix it. */
export interface LaunchDetails {
  /** The command as configured. */
  command: string;
  /** The file it resolved to, when one was found. */
  file?: string;
  /** The folders searched, in order (empty when the command was a path). */
  searched?: string[];
  /** The working directory it was to run in. */
  cwd?: string;
}

/** A server process could not be started. `message` is meant for the user as is. */
export class LaunchError extends Error {
  override readonly name = 'LaunchError';

  constructor(
    readonly code: LaunchErrorCode,
    message: string,
    options?: ErrorOptions & { details?: LaunchDetails },
  ) {
    super(message, options);
    this.details = options?.details;
  }

  /** What was looked for and where (absent for errors raised without it). */
  readonly details: LaunchDetails | undefined;
}

/** Turns an error from `child_process.spawn` into a LaunchError naming the command. */
export function launchErrorFromSpawn(command: string, error: NodeJS.ErrnoException, details?: LaunchDetails): LaunchError {
  const options = { cause: error, details: details ?? { command } };
  switch (error.code) {
    case 'ENOENT':
      return new LaunchError('command-not-found', `\`${command}\` could not be started: file not found`, options);
    case 'EACCES':
    case 'EPERM':
      return new LaunchError('not-executable', `\`${command}\` could not be started: permission denied (is it executable?)`, options);
    default:
      return new LaunchError('spawn-failed', `\`${command}\` could not be started: ${error.message}`, options);
  }
}
