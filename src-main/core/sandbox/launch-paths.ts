/**
 * The paths a launch names (its arguments, its environment's values) read against its sandbox: one
 * the sandbox hides, or shows only read-only, is what makes a sandboxed server fail in ways that do
 * not mention the sandbox ("Cannot access directory …"). Named on the Overview and in Diagnose with
 * Share folder and Run unsandboxed; the mounts the sandbox was built with are listed with them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxMount, SandboxPathNote } from '@contract';
import { isCovered, relayFolder } from './bwrap-args';
import type { SandboxSpec } from './sandbox-spec';

/** What every bubblewrap sandbox shows of the system, read-only (see bwrap-args.ts). */
export const SYSTEM_MOUNTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** The launch as configured: what it names. */
export interface LaunchNames {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
}

/** Absolute paths (and `~/…`) in a value: the whole value, or what follows `--flag=`. */
function pathsIn(value: string, home: string): string[] {
  const candidates = [value, ...(value.includes('=') ? [value.slice(value.indexOf('=') + 1)] : [])];
  return candidates
    .map((v) => v.trim())
    .map((v) => (v === '~' || v.startsWith('~/') ? path.join(home, v.slice(1)) : v))
    .filter((v) => path.isAbsolute(v) && v.length > 1 && !v.includes('\n'))
    .map((v) => path.normalize(v));
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The folder to share so `p` becomes visible: itself when it is a folder, else the folder holding it. */
function folderToShare(p: string): string {
  try {
    return fs.statSync(p).isDirectory() ? p : path.dirname(p);
  } catch {
    return path.dirname(p);
  }
}

/**
 * Each path the launch names that the sandbox hides or shows read-only. `launched` is the spec as
 * launched (install location added); `installOnly` are the locations the launch added for the
 * server's own code: its script and package are read-only by design, not worth a note.
 */
export function launchPathNotes(
  names: LaunchNames,
  launched: SandboxSpec,
  installOnly: readonly string[],
  home = os.homedir(),
): SandboxPathNote[] {
  const writable = [...launched.readWrite, launched.scratch];
  const readable = [...SYSTEM_MOUNTS, ...launched.readOnly];
  const notes = new Map<string, SandboxPathNote>();
  const named: [string, string][] = [
    ...names.args.map((arg, i): [string, string] => [`argument ${i + 1}`, arg]),
    ...Object.entries(names.env).map(([key, value]): [string, string] => [key, value]),
  ];
  for (const [from, value] of named) {
    for (const p of pathsIn(value, home)) {
      // Its own script is read-only by design; a folder argument shown read-only is worth saying.
      if (notes.has(p) || (isCovered(p, installOnly) && !isDirectory(p))) continue;
      const hiddenInside = launched.hidden.some((h) => isCovered(p, [h])) && !isCovered(p, [launched.scratch]);
      if (!hiddenInside && isCovered(p, writable)) continue;
      const kind = !hiddenInside && isCovered(p, readable) ? 'read-only' : 'hidden';
      notes.set(p, { path: p, from, kind, folder: folderToShare(p) });
    }
  }
  return [...notes.values()];
}

/** Everything the sandbox mounts, as the Overview lists it. */
export function sandboxMounts(
  launched: SandboxSpec,
  installOnly: readonly string[],
  kindOf: (p: string) => boolean = fs.existsSync,
): SandboxMount[] {
  return [
    ...launched.readWrite.map((p): SandboxMount => ({ path: p, access: 'read-write', what: 'shared folder' })),
    ...launched.readOnly.map((p): SandboxMount => ({
      path: p,
      access: 'read-only',
      what: installOnly.includes(p) ? 'its own code, or a folder its launch names' : 'shared folder',
    })),
    { path: launched.scratch, access: 'read-write', what: 'its scratch folder (HOME, TMPDIR)' },
    ...[relayFolder(launched)].flatMap((p): SandboxMount[] =>
      p ? [{ path: p, access: 'read-only', what: "Patchbay's runtime, for its network relay" }] : [],
    ),
    ...SYSTEM_MOUNTS.filter((p) => kindOf(p)).map((p): SandboxMount => ({ path: p, access: 'read-only', what: 'the system' })),
  ];
}
