/**
 * Recognises, in what a server wrote to stderr, a file access the sandbox stopped: a "no such file"
 * or "permission denied" error naming a path that lies outside everything the sandbox lets it see.
 * Inside a bubblewrap sandbox unshared places simply do not exist, so ENOENT on such a path is the
 * sandbox's doing (the same path may well exist for the user).
 */
import { isCovered } from './bwrap-args';
import type { SandboxSpec } from './sandbox-spec';

/** Error words Node, Python and libc print next to a path they failed on. */
const DENIAL = /ENOENT|EACCES|EPERM|EROFS|No such file or directory|Permission denied|Operation not permitted|Read-only file system/;
/** An absolute path, possibly quoted; quotes and trailing punctuation are trimmed. */
const PATH = /(?:'|"|\s|^)(\/[^\s'"`,:;()]+)/g;
/** What every sandbox shows of the system (its /tmp is empty: the host's /tmp is outside); macOS's too. */
const VISIBLE = [
  ...['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/proc', '/dev'],
  ...['/System', '/Library', '/private/etc', '/private/var/db'],
];

/**
 * A path a denial line names: outside the sandbox (absent there), a write outside the shared folders
 * (EROFS from the sandbox's read-only root), or a write inside it to a place mounted read-only.
 */
export interface Denial {
  path: string;
  kind: 'outside' | 'write-outside' | 'read-only';
}

/** Writes refused because the place is mounted read-only (a folder shared read-only, its own code). */
const READ_ONLY = /EROFS|Read-only file system/;

/** Every path that a denial in `lines` names and the sandbox explains (in order, each once). */
export function findDenials(lines: readonly string[], spec: Pick<SandboxSpec, 'readOnly' | 'readWrite' | 'scratch'>): Denial[] {
  const inside = [...VISIBLE, ...spec.readOnly, ...spec.readWrite, spec.scratch];
  if (!lines.some((line) => DENIAL.test(line))) return [];
  const readOnly = lines.some((line) => READ_ONLY.test(line));
  const found = new Map<string, Denial>();
  // Node prints an error object over several lines: the code on one, `path: '…'` on another.
  for (const line of lines) {
    if (!DENIAL.test(line) && !/\bpath:/.test(line)) continue;
    // A line with its own error word says which; a bare `path: '…'` line takes the window's.
    const write = DENIAL.test(line) ? READ_ONLY.test(line) : readOnly;
    for (const match of line.matchAll(PATH)) {
      const candidate = match[1].replace(/[.'"]+$/, '');
      if (candidate.length <= 1 || found.has(candidate)) continue;
      if (!isCovered(candidate, inside)) found.set(candidate, { path: candidate, kind: write ? 'write-outside' : 'outside' });
      else if (write && deepestMountIsReadOnly(candidate, spec)) found.set(candidate, { path: candidate, kind: 'read-only' });
    }
  }
  return [...found.values()];
}

/** The first path outside `spec` that a denial line in `lines` names, or undefined. */
export function findBlockedPath(
  lines: readonly string[],
  spec: Pick<SandboxSpec, 'readOnly' | 'readWrite' | 'scratch'>,
): string | undefined {
  return findDenials(lines, spec).find((denial) => denial.kind === 'outside')?.path;
}

/** True when the deepest mount holding `p` is a read-only one (deeper mounts lie over shallower ones). */
function deepestMountIsReadOnly(p: string, spec: Pick<SandboxSpec, 'readOnly' | 'readWrite' | 'scratch'>): boolean {
  const holding = (dirs: readonly string[]) => Math.max(-1, ...dirs.filter((dir) => isCovered(p, [dir])).map((dir) => dir.length));
  const readOnly = holding(spec.readOnly);
  return readOnly >= 0 && readOnly > holding([...spec.readWrite, spec.scratch]);
}
