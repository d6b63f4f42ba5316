/**
 * What makes a folder a valid root: an existing directory, named by its canonical path (absolute,
 * symlinks resolved, no `.`/`..`), sent as a `file://` URI that encodes spaces, non-ASCII characters
 * and Windows drive letters correctly.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Why a path cannot be a root, as a sentence for the user. */
export class RootPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RootPathError';
  }
}

/** A folder as the host keeps it. */
export interface CanonicalFolder {
  /** Real path: what servers get. */
  path: string;
  /** The path as given, when it differs from the real one (a symlink, `..`, `~`, a trailing slash). */
  pickedPath?: string;
}

/** Expands `~` and insists on an absolute path: a relative one would depend on the host's cwd. */
export function absoluteInput(input: string, home = os.homedir()): string {
  const trimmed = input.trim();
  const expanded = trimmed === '~' ? home : /^~[/\\]/.test(trimmed) ? path.join(home, trimmed.slice(2)) : trimmed;
  if (!path.isAbsolute(expanded))
    throw new RootPathError(`Use a full path (starting with ${process.platform === 'win32' ? 'a drive letter' : '/'} or ~).`);
  return expanded;
}

/**
 * Resolves `input` to an existing directory's canonical path. `fs.realpath` resolves every symlink
 * (so a link to a folder elsewhere becomes that folder: the target is what gets shared) and removes
 * `.`/`..` after resolving links, which is the only correct order.
 */
export async function canonicalizeFolder(input: string): Promise<CanonicalFolder> {
  const given = absoluteInput(input);
  let real: string;
  try {
    real = await fs.realpath(given);
  } catch (error) {
    throw new RootPathError(describeFsError(error, given));
  }
  const stat = await fs.stat(real).catch((error: unknown) => {
    throw new RootPathError(describeFsError(error, given));
  });
  if (!stat.isDirectory()) throw new RootPathError(`${given} is a file, not a folder.`);
  // A trailing separator is no surprise worth mentioning; a resolved symlink or `..` is.
  const asTyped = path.parse(given).root === given ? given : given.replace(/[/\\]+$/, '');
  return real === asTyped ? { path: real } : { path: real, pickedPath: given };
}

/**
 * Whether a stored root is usable right now: still a directory, and still its own real path (a folder
 * replaced by a symlink to somewhere else must not silently widen what servers see).
 */
export async function isRootAvailable(canonicalPath: string): Promise<boolean> {
  try {
    const real = await fs.realpath(canonicalPath);
    if (real !== canonicalPath) return false;
    return (await fs.stat(real)).isDirectory();
  } catch {
    return false;
  }
}

/** The `file://` URI of a canonical path (`windows` selects Windows path rules; default: this OS). */
export function rootUri(canonicalPath: string, windows = process.platform === 'win32'): string {
  // A bare drive (`D:\`) is written by hand: Node's cross-platform path rules double its slash.
  const drive = windows ? /^([A-Za-z]):\\?$/.exec(canonicalPath) : null;
  if (drive) return `file:///${drive[1]}:/`;
  return pathToFileURL(canonicalPath, { windows }).href;
}

/** The default name of a folder: its last segment (or the path itself for a drive or `/`). */
export function defaultRootName(canonicalPath: string): string {
  return path.basename(canonicalPath) || canonicalPath;
}

/** A user-facing sentence for a failed file-system call on `given`. */
export function describeFsError(error: unknown, given: string): string {
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return `No such folder: ${given}`;
    case 'ENOTDIR':
      return `${given} is not a folder.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${given}`;
    case 'ELOOP':
      return `${given} is a symlink loop.`;
    default:
      return `Cannot open ${given}: ${(error as Error).message}`;
  }
}
