/**
 * The skills of servers that declare the skills extension (SEP-2640): their entries, listed page by
 * page once a server is Ready (bounded: a server listing more than `MAX_LISTED` is cut, and says so),
 * and each skill's files read only when it is loaded — from the server that serves it, verified
 * against the held entry (size, SHA-256 digest, then the frontmatter field by field). Nothing is
 * prefetched: listing reads entries only. A dynamic skill (no manifest) is read and its folders listed
 * through `dynamic-skills.ts`, at load only.
 */
import { z } from 'zod';
import { SKILLS_EXTENSION_ID, type ServerSkillsState } from '@contract';
import type { LiveServer } from '../servers/connection/live-server';
import { fingerprintOf, readEntry, type HeldEntry, type SkillFileEntry } from './skill-entry';
import { digestOf, parseSkillMd, sameFrontmatter } from './skill-format';
import { dynamicMismatch, outsideProblem, readSkillFolder } from './dynamic-skills';

/** Skills kept per server at most (a listing past it is cut and marked truncated). */
export const MAX_LISTED = 10_000;
/** Pages of `skills/list` walked at most (a server returning one skill a page cannot keep the host busy). */
const MAX_PAGES = 500;

const ListResult = z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.string().optional() });
const GetResult = z.looseObject({ skill: z.unknown() });

export interface VerifiedFile {
  uri: string;
  text: string;
  bytes: number;
}

interface ServerSkillSet {
  serverName: string;
  state: ServerSkillsState['state'];
  message?: string;
  truncated?: boolean;
  entries: Map<string, HeldEntry>;
  /** Bumped when the server stops or lists again: a listing still running for an older generation is dropped. */
  generation: number;
}

/** Whether a server's handshake declares the skills extension. */
export function declaresSkills(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && SKILLS_EXTENSION_ID in extensions;
}

/** A verification failure or unusable skill, worded for the user and the model. */
export class SkillRefused extends Error {}

export class ServerSkills {
  private readonly sets = new Map<string, ServerSkillSet>();

  constructor(
    private readonly connection: (serverId: string) => LiveServer | undefined,
    private readonly changed: (serverId: string) => void,
  ) {}

  servers(): ServerSkillsState[] {
    return [...this.sets].map(([serverId, set]) => ({
      serverId,
      serverName: set.serverName,
      state: set.state,
      count: set.entries.size,
      ...(set.truncated ? { truncated: true } : {}),
      ...(set.message ? { message: set.message } : {}),
    }));
  }

  entries(serverId: string): { serverName: string; entries: Iterable<HeldEntry> } | undefined {
    const set = this.sets.get(serverId);
    return set && { serverName: set.serverName, entries: set.entries.values() };
  }

  /** Lists the server's skills again (it just became Ready); replaces what was held. */
  async list(serverId: string, serverName: string): Promise<void> {
    const generation = (this.sets.get(serverId)?.generation ?? 0) + 1;
    const set: ServerSkillSet = { serverName, state: 'listing', entries: new Map(), generation };
    this.sets.set(serverId, set);
    this.changed(serverId);
    const live = this.connection(serverId);
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        if (!live) throw new Error('it is not running');
        const result = await live.sendRequest('skills/list', { method: 'skills/list', params: cursor ? { cursor } : {} }, ListResult);
        if (this.sets.get(serverId) !== set) return;
        for (const raw of result.skills) {
          const entry = readEntry(raw);
          if (!entry) continue;
          if (set.entries.size >= MAX_LISTED) {
            set.truncated = true;
            break;
          }
          set.entries.set(entry.uri, entry);
        }
        cursor = result.nextCursor;
        if (!cursor || set.truncated) break;
        if (page === MAX_PAGES - 1) set.truncated = true;
      }
      set.state = 'ok';
    } catch (error) {
      if (this.sets.get(serverId) !== set) return;
      set.state = 'error';
      set.message = `Listing the skills of "${serverName}" failed: ${(error as Error).message}`;
    }
    this.changed(serverId);
  }

  /** Forgets a server's skills (it stopped or was removed). */
  drop(serverId: string): void {
    if (this.sets.delete(serverId)) this.changed(serverId);
  }

  /** The held entry of a skill, or the server's current one asked with `skills/get` (a skill not in the listing). */
  async entry(serverId: string, uri: string): Promise<HeldEntry> {
    const held = this.sets.get(serverId)?.entries.get(uri);
    if (held) return held;
    const fresh = await this.refresh(serverId, uri);
    if (!fresh) throw new SkillRefused(`The server "${this.live(serverId).name}" answered skills/get for ${uri} with no usable entry.`);
    this.sets.get(serverId)?.entries.set(uri, fresh);
    return fresh;
  }

  /** The server's current entry for a skill (`skills/get`); undefined when it gives none usable. */
  private async refresh(serverId: string, uri: string): Promise<HeldEntry | undefined> {
    const live = this.live(serverId);
    const result = await live.sendRequest(`skills/get "${uri}"`, { method: 'skills/get', params: { uri } }, GetResult);
    const entry = readEntry(result.skill);
    return entry && entry.uri === uri ? entry : undefined;
  }

  /**
   * Reads a file of a skill (its `SKILL.md` when `fileUri` is the skill's URI) from its server and
   * verifies it against the held entry. A `SKILL.md` is also checked against the entry's frontmatter.
   * A size or digest mismatch asks the server for the skill's current entry once (`skills/get`, the
   * spec's way out of a stale listing): when its files changed, the new entry is held — and the user's
   * switch, bound to the old files, no longer holds; otherwise, and on a frontmatter mismatch, the skill
   * is marked refused (until the server lists it again). Either way `SkillRefused` says why.
   */
  async read(serverId: string, entry: HeldEntry, fileUri: string, signal?: AbortSignal): Promise<VerifiedFile> {
    const live = this.live(serverId);
    const who = `the skill "${entry.name}" from the server "${live.name}"`;
    if (entry.problem) throw new SkillRefused(`Patchbay refused ${who}: ${entry.problem}.`);
    if (entry.resources === 'dynamic') return this.readDynamic(serverId, live, entry, fileUri, signal);
    const listed = entry.resources.find((file) => file.uri === fileUri);
    // An unlisted file is a change to the skill (SEP-2640, "The Acting Window"): not read at all.
    if (!listed) throw new SkillRefused(`The skill "${entry.name}" from "${live.name}" has no file ${fileUri} in its entry.`);
    const bytes = await readBytes(live, entry, fileUri, who, signal);
    const mismatch = verify(entry, fileUri, listed, bytes);
    if (mismatch) {
      const fresh = mismatch.stale ? await this.refresh(serverId, entry.uri).catch(() => undefined) : undefined;
      if (fresh && fingerprintOf(fresh) !== fingerprintOf(entry)) {
        this.sets.get(serverId)?.entries.set(entry.uri, fresh);
        this.changed(serverId);
        throw new SkillRefused(
          `The server "${live.name}" changed the skill "${entry.name}" since it was listed (${mismatch.cause}); ` +
            'Patchbay holds its new list of files now: switch it on again to load it as it is.',
        );
      }
      entry.problem = mismatch.cause;
      this.changed(serverId);
      throw new SkillRefused(`Patchbay refused ${who}: ${mismatch.cause}.`);
    }
    return { uri: fileUri, text: bytes.toString('utf8'), bytes: bytes.length };
  }

  /**
   * A file of a dynamic skill: only inside its folder, checked against what its folder listing said
   * and the skill's size limit; a `SKILL.md` also against the entry's frontmatter (a mismatch refuses
   * the skill). There is no manifest to refresh, so a mismatch is refused as it is.
   */
  private async readDynamic(serverId: string, live: LiveServer, entry: HeldEntry, fileUri: string, signal?: AbortSignal) {
    const who = `the skill "${entry.name}" from the server "${live.name}"`;
    const outside = fileUri === entry.uri ? undefined : outsideProblem(entry, fileUri);
    if (outside) throw new SkillRefused(`Patchbay refused to read ${fileUri} for ${who}: ${outside}.`);
    const bytes = await readBytes(live, entry, fileUri, who, signal);
    const name = fileName(entry, fileUri);
    const mismatch = dynamicMismatch(entry, fileUri, name, bytes);
    if (mismatch) throw new SkillRefused(`Patchbay refused ${name} of ${who}: ${mismatch}.`);
    if (fileUri === entry.uri) {
      const problem = frontmatterMismatch(entry, bytes);
      if (problem) throw this.refuse(serverId, entry, problem);
    }
    return { uri: fileUri, text: bytes.toString('utf8'), bytes: bytes.length };
  }

  /** Lists a folder of a dynamic skill (`resources/directory/read`, at load only); a listing out of the skill refuses it. */
  async folder(serverId: string, entry: HeldEntry, relative: string) {
    const live = this.live(serverId);
    try {
      return await readSkillFolder(live, entry, relative, (cause) => this.refuse(serverId, entry, cause));
    } catch (error) {
      if (error instanceof SkillRefused) throw error;
      throw new SkillRefused(
        `Listing the folder ${relative || '(root)'} of the skill "${entry.name}" from the server "${live.name}" failed: ${(error as Error).message}`,
      );
    }
  }

  /** Marks a skill refused (until its server lists it again) and words why. */
  private refuse(serverId: string, entry: HeldEntry, cause: string): SkillRefused {
    entry.problem = cause;
    this.changed(serverId);
    return new SkillRefused(`Patchbay refused the skill "${entry.name}" from the server "${this.live(serverId).name}": ${cause}.`);
  }

  private live(serverId: string): LiveServer {
    const live = this.connection(serverId);
    if (!live || live.state.status !== 'ready')
      throw new SkillRefused(`The server "${live?.name ?? serverId}" is not running; start it to load its skills.`);
    return live;
  }
}

/**
 * Why a file read does not match its entry, in words; `stale` when the server may just have changed
 * the skill since it was listed (size or digest), not when the entry contradicts itself (frontmatter).
 */
function verify(entry: HeldEntry, fileUri: string, listed: SkillFileEntry, bytes: Buffer): { cause: string; stale: boolean } | undefined {
  const name = fileName(entry, fileUri);
  // Size first: a read of another length is a verification failure whether or not the digest is computed.
  if (bytes.length !== listed.size)
    return { cause: `${name} is ${bytes.length} bytes where its entry says ${listed.size} (a size mismatch)`, stale: true };
  if (digestOf(bytes) !== listed.digest) return { cause: `${name} does not match its SHA-256 digest (a digest mismatch)`, stale: true };
  if (fileUri !== entry.uri) return undefined;
  const cause = frontmatterMismatch(entry, bytes);
  return cause ? { cause, stale: false } : undefined;
}

/** Why a `SKILL.md` read does not match its entry's frontmatter (SEP-2640 "Frontmatter Verification"). */
function frontmatterMismatch(entry: HeldEntry, bytes: Buffer): string | undefined {
  const parsed = parseSkillMd(bytes.toString('utf8'));
  if ('error' in parsed) return parsed.error;
  const differs = sameFrontmatter(parsed.frontmatter, entry.frontmatter);
  return differs ? `the "${differs}" of its SKILL.md frontmatter differs from its entry (a frontmatter mismatch)` : undefined;
}

/** A file's raw bytes as the server sent them (text as UTF-8, a blob decoded). */
async function readBytes(live: LiveServer, entry: HeldEntry, fileUri: string, who: string, signal?: AbortSignal): Promise<Buffer> {
  let result;
  try {
    result = await live.readResource(fileUri, { signal });
  } catch (error) {
    throw new SkillRefused(`Reading ${fileName(entry, fileUri)} of ${who} failed: ${(error as Error).message}`);
  }
  const content = result.contents.find((part) => part.uri === fileUri) ?? result.contents[0];
  return content && 'text' in content && typeof content.text === 'string'
    ? Buffer.from(content.text, 'utf8')
    : Buffer.from(String((content as { blob?: unknown } | undefined)?.blob ?? ''), 'base64');
}

/** A file's path within its skill, for messages. */
export function fileName(entry: HeldEntry, fileUri: string): string {
  return fileUri.startsWith(`${entry.root}/`) ? fileUri.slice(entry.root.length + 1) : fileUri;
}
