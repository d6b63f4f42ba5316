/**
 * Skills whose entry says `"resources": "dynamic"` (SEP-2640 "Resources"): the server generates their
 * files, so it publishes no manifest to verify against. Patchbay loads them anyway, within bounds:
 * their folders are listed with `resources/directory/read` only when the skill is loaded (never at
 * listing, never ahead of a request) and only on a server that declared `directoryRead: true`; every
 * URI a listing names must stay inside the skill's folder (one that does not refuses the skill, in
 * words); a file is read only inside the folder, checked against the size (and a `digest`, where a
 * server adds one) its folder listing gave, and all reads of the skill together stop at the 16 MiB
 * limit ("applies the total-size limit to what it actually retrieves"). Nothing here is executed.
 */
import { z } from 'zod';
import { SKILLS_EXTENSION_ID } from '@contract';
import type { LiveServer } from '../servers/connection/live-server';
import type { HeldEntry } from './skill-entry';
import { digestOf, MAX_SKILL_BYTES, MAX_SKILL_FILES } from './skill-format';
import { formatBytes } from '@contract';

/** Pages of one `resources/directory/read` walked at most. */
const MAX_DIR_PAGES = 20;
/** Children of one folder kept at most (a skill has at most 512 files). */
const MAX_DIR_ENTRIES = MAX_SKILL_FILES;

const DirResult = z.looseObject({ resources: z.array(z.unknown()), nextCursor: z.string().optional() });
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A child of a folder of a dynamic skill, as its server listed it. */
export interface DirChild {
  /** Relative to the skill's folder; a folder ends in `/`. */
  path: string;
  size?: number;
}

interface Observed {
  size?: number;
  digest?: string;
  folder: boolean;
}

/** Per held entry: what its folder listings said, and the bytes read so far (both gone with the entry). */
const seen = new WeakMap<HeldEntry, { files: Map<string, Observed>; retrieved: number }>();

function stateOf(entry: HeldEntry) {
  let state = seen.get(entry);
  if (!state) seen.set(entry, (state = { files: new Map(), retrieved: 0 }));
  return state;
}

/** Whether the server's skills extension declares `directoryRead: true` (else the method MUST NOT be called). */
function declaresDirectoryRead(capabilities: unknown): boolean {
  const settings = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[SKILLS_EXTENSION_ID];
  return typeof settings === 'object' && settings !== null && (settings as { directoryRead?: unknown }).directoryRead === true;
}

/** Why a URI is not a file or folder inside the skill's folder (in words); undefined when it is. */
export function outsideProblem(entry: HeldEntry, uri: string): string | undefined {
  if (!uri.startsWith(`${entry.root}/`)) return `${uri} is outside the skill's folder ${entry.root}`;
  const rest = uri.slice(entry.root.length + 1);
  if (rest === '' || rest.split('/').some((segment) => segment === '..' || segment === '.' || segment === ''))
    return `${uri} has a path that leaves the skill's folder`;
  return undefined;
}

/** Whether a path of the skill was listed as a folder by its server. */
export function listedAsFolder(entry: HeldEntry, relative: string): boolean {
  return seen.get(entry)?.files.get(`${entry.root}/${relative.replace(/\/+$/, '')}`)?.folder === true;
}

/**
 * Lists one folder of a dynamic skill (`relative` '' for its root): paged and bounded; a child outside
 * the folder refuses the whole answer. `refuse` words the refusal (and marks the skill).
 */
export async function readSkillFolder(
  live: LiveServer,
  entry: HeldEntry,
  relative: string,
  refuse: (cause: string) => Error,
): Promise<{ children: DirChild[]; cut: boolean; unsupported?: true }> {
  const capabilities = live.state.status === 'ready' ? live.state.server.capabilities : undefined;
  if (!declaresDirectoryRead(capabilities)) return { children: [], cut: false, unsupported: true };
  const folder = relative === '' ? entry.root : `${entry.root}/${relative.replace(/\/+$/, '')}`;
  const state = stateOf(entry);
  const children: DirChild[] = [];
  let cursor: string | undefined;
  let cut = false;
  for (let page = 0; ; page++) {
    if (page === MAX_DIR_PAGES) {
      cut = true;
      break;
    }
    const params = cursor ? { uri: folder, cursor } : { uri: folder };
    const result = await live.sendRequest(
      `resources/directory/read "${folder}"`,
      { method: 'resources/directory/read', params },
      DirResult,
    );
    for (const raw of result.resources) {
      const { uri, mimeType, size, digest } = (raw ?? {}) as Record<string, unknown>;
      if (typeof uri !== 'string') throw refuse(`its server listed a child of ${folder} without a URI`);
      const problem = outsideProblem(entry, uri) ?? (uri.startsWith(`${folder}/`) ? undefined : `${uri} is not inside ${folder}`);
      if (problem) throw refuse(`the listing of its folder ${folder} names ${problem}`);
      if (children.length >= MAX_DIR_ENTRIES) {
        cut = true;
        break;
      }
      const isFolder = mimeType === 'inode/directory';
      const observed: Observed = {
        folder: isFolder,
        ...(typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? { size } : {}),
        ...(typeof digest === 'string' && DIGEST.test(digest) ? { digest } : {}),
      };
      state.files.set(uri, observed);
      const path = uri.slice(entry.root.length + 1) + (isFolder ? '/' : '');
      children.push({ path, ...(observed.size !== undefined && !isFolder ? { size: observed.size } : {}) });
    }
    cursor = result.nextCursor;
    if (!cursor || cut) break;
  }
  return { children, cut };
}

/**
 * Checks bytes read from a dynamic skill: within the skill's 16 MiB over all its reads, and matching
 * the size and digest its folder listing gave (when it gave them). A cause in words, else undefined.
 * (`fileUri` is the entry's own `SKILL.md` when the skill itself is loaded.)
 */
export function dynamicMismatch(entry: HeldEntry, fileUri: string, name: string, bytes: Buffer): string | undefined {
  const state = stateOf(entry);
  // Loading the skill again (its SKILL.md) starts a new count: the limit is per load, not per session.
  if (fileUri === entry.uri) state.retrieved = 0;
  if (state.retrieved + bytes.length > MAX_SKILL_BYTES)
    return `reading ${name} would take what Patchbay read of it past the ${formatBytes(MAX_SKILL_BYTES)} a skill may have`;
  const observed = state.files.get(fileUri);
  if (observed?.size !== undefined && observed.size !== bytes.length)
    return `${name} is ${bytes.length} bytes where its folder listing says ${observed.size} (a size mismatch)`;
  if (observed?.digest !== undefined && observed.digest !== digestOf(bytes))
    return `${name} does not match the SHA-256 digest its folder listing gives (a digest mismatch)`;
  state.retrieved += bytes.length;
  return undefined;
}
