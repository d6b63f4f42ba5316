/**
 * Every skill the host knows, from both sources (servers' entries, the local folder's last scan),
 * with the user's switch: what the Skills tab and Settings › Skills list, what the model is offered
 * (enabled, loadable skills under ids that name their origin), and loading one — verified at each load.
 */
import type { SkillContent, SkillInfo, SkillList } from '@contract';
import { HostCallError } from '@contract';
import { estimateTokens } from '../tool-search/token-estimate';
import { skillTokens, type CountTokens } from './skill-tokens';
import { type LocalScan, type LocalSkill, readLocalFile, relativeFileProblem } from './local-skills';
import type { HeldEntry } from './skill-entry';
import { entryBytes, fingerprintOf } from './skill-entry';
import { fileName, SkillRefused, type ServerSkills } from './server-skills';
import { type DirChild, listedAsFolder } from './dynamic-skills';
import type { SkillPrefs } from './skill-prefs';
import path from 'node:path';

/** A skill as the model is offered it: the id it loads it by, and where it comes from. */
export interface AdvertisedSkill {
  id: string;
  key: string;
  name: string;
  description: string;
  /** `local`, or the server's name in Patchbay (the host's label, never its self-reported name). */
  origin: { kind: 'local' } | { kind: 'server'; serverId: string; serverName: string };
}

/** A loaded skill or file, for the model: the text and what it is. */
export interface SkillLoad {
  skill: AdvertisedSkill;
  /** The file read (`SKILL.md` when the skill itself was loaded). */
  file: string;
  text: string;
  /** The skill's other files (relative paths and sizes), listed when the skill itself is loaded. */
  files: { path: string; size?: number }[];
}

export const localKey = (dir: string) => `local:${dir}`;
export const serverKey = (serverId: string, uri: string) => `server:${serverId}:${uri}`;

/** A label usable in an id: lowercase letters, digits and hyphens. */
function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'server'
  );
}

export interface SkillCatalogDeps {
  servers: ServerSkills;
  prefs: SkillPrefs;
  /** The local folder's last scan. */
  local(): LocalScan;
  now(): Date;
  /** The context meter's token count (absent: the quick estimate). */
  countTokens?: CountTokens;
}

export class SkillCatalog {
  /**
   * A server skill's `SKILL.md` is not read before it is loaded: once it has been (by the user or the
   * model), its cost is the meter's count, kept by the skill's key and fingerprint (a changed skill is
   * estimated again until it is loaded again).
   */
  private readonly counted = new Map<string, number>();

  constructor(private readonly deps: SkillCatalogDeps) {}

  list(serverId?: string): SkillList {
    const { servers, local } = this.deps;
    const scan = local();
    const skills: SkillInfo[] = [];
    for (const state of servers.servers()) {
      if (serverId && state.serverId !== serverId) continue;
      for (const entry of servers.entries(state.serverId)?.entries ?? [])
        skills.push(this.serverInfo(state.serverId, state.serverName, entry));
    }
    if (!serverId) for (const skill of scan.skills) skills.push(this.localInfo(scan.state.folder, skill));
    return {
      skills,
      local: scan.state,
      servers: servers.servers().filter((state) => !serverId || state.serverId === serverId),
    };
  }

  setEnabled(key: string, enabled: boolean): SkillInfo {
    const found = this.find(key);
    // A server's skill is switched on for its files as listed now (a later change switches it off).
    this.deps.prefs.set(key, enabled, this.deps.now(), found.kind === 'server' ? fingerprintOf(found.entry) : undefined);
    return found.info();
  }

  /** The skills the model is offered now: enabled and not refused, each under an id naming its origin. */
  forModel(): AdvertisedSkill[] {
    const offered: AdvertisedSkill[] = [];
    const labels = new Set<string>(['local']);
    for (const state of this.deps.servers.servers()) {
      let label = slug(state.serverName);
      for (let n = 2; labels.has(label); n++) label = `${slug(state.serverName)}-${n}`;
      labels.add(label);
      const entries = [...(this.deps.servers.entries(state.serverId)?.entries ?? [])].filter(
        (entry) => !entry.problem && this.deps.prefs.enabled(serverKey(state.serverId, entry.uri), false, fingerprintOf(entry)),
      );
      const names = new Map<string, number>();
      for (const entry of entries) names.set(entry.name, (names.get(entry.name) ?? 0) + 1);
      for (const entry of entries) {
        // Two skills of one server with one name: told apart by their path (SEP-2640 "Names").
        const tail = names.get(entry.name)! > 1 ? entry.root.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '') : entry.name;
        offered.push({
          id: `${label}/${tail}`,
          key: serverKey(state.serverId, entry.uri),
          name: entry.name,
          description: entry.description,
          origin: { kind: 'server', serverId: state.serverId, serverName: state.serverName },
        });
      }
    }
    for (const skill of this.deps.local().skills) {
      if (skill.problem || !this.deps.prefs.enabled(localKey(skill.dir), true)) continue;
      offered.push({
        id: `local/${skill.dir}`,
        key: localKey(skill.dir),
        name: skill.name,
        description: skill.description,
        origin: { kind: 'local' },
      });
    }
    return offered;
  }

  /** What the user inspects: the verified `SKILL.md` and the file list (a load without the model). */
  async read(key: string): Promise<SkillContent> {
    const found = this.find(key);
    const loaded = await this.loadFound(found, undefined);
    return { key, name: found.info().name, text: loaded.text, files: loaded.files, tokens: await this.count(found, loaded.text) };
  }

  /** What a skill's `SKILL.md` costs, as the meter counts it; a server skill's is kept for its listing. */
  private async count(found: Found, skillMd: string): Promise<number> {
    const tokens = await skillTokens(skillMd, this.deps.countTokens);
    if (found.kind === 'server') {
      if (this.counted.size >= MAX_COUNTED) this.counted.delete(this.counted.keys().next().value!);
      this.counted.set(countedKey(serverKey(found.serverId, found.entry.uri), found.entry), tokens);
    }
    return tokens;
  }

  /** Loads a skill (or one of its files) for the model; refusals throw `SkillRefused` with words. */
  async load(skill: AdvertisedSkill, file: string | undefined, signal?: AbortSignal): Promise<SkillLoad> {
    const found = this.find(skill.key);
    const loaded = await this.loadFound(found, file, signal);
    // Counted beside the turn (the model does not wait for it): the listing shows the meter's figure from now on.
    if (loaded.file === 'SKILL.md' && found.kind === 'server') void this.count(found, loaded.text);
    return { skill, ...loaded };
  }

  private async loadFound(found: Found, file: string | undefined, signal?: AbortSignal): Promise<Omit<SkillLoad, 'skill'>> {
    if (found.kind === 'server') {
      const { serverId, entry } = found;
      const servers = this.deps.servers;
      const current = await servers.entry(serverId, entry.uri);
      if (file !== undefined && file !== 'SKILL.md') {
        const refused = relativeFileProblem(file);
        if (refused) throw new SkillRefused(`The skill "${entry.name}" from "${found.serverName}" cannot read that file: ${refused}.`);
        if (current.resources === 'dynamic') {
          // No manifest: a folder is what the server lists now (`resources/directory/read`, bounded, inside the skill).
          if (file.endsWith('/') || listedAsFolder(current, file)) {
            const listing = await servers.folder(serverId, current, file);
            if (listing.unsupported)
              throw new SkillRefused(
                `The server "${found.serverName}" does not list folders (no directoryRead in its skills extension), so the folder ${file} of the skill "${entry.name}" cannot be listed; ask for a file by its path.`,
              );
            return dynamicFolder(listing, file);
          }
        } else {
          // A folder of the skill is answered from the held entry (SEP-2640 allows it): no directory read.
          const folder = folderOf(
            current.resources.map((f) => ({ path: fileName(current, f.uri), size: f.size })),
            file,
          );
          if (folder) return folder;
        }
        const read = await servers.read(serverId, current, `${current.root}/${file}`, signal);
        return { file, text: shown(file, read.text), files: [] };
      }
      const read = await servers.read(serverId, current, current.uri, signal);
      // A dynamic skill's files are listed now that it is loaded (its root folder, one level), never before.
      const files =
        current.resources === 'dynamic'
          ? (await servers.folder(serverId, current, '')).children.filter((f) => f.path !== 'SKILL.md')
          : current.resources.filter((f) => f.uri !== current.uri).map((f) => ({ path: fileName(current, f.uri), size: f.size }));
      return { file: 'SKILL.md', text: read.text, files };
    }
    const { skill, folder } = found;
    const name = file ?? 'SKILL.md';
    const inFolder = file !== undefined && !relativeFileProblem(file) ? folderOf(skill.files, file) : undefined;
    if (inFolder) return inFolder;
    const read = await readLocalFile(path.join(folder, skill.dir), name);
    if ('problem' in read) throw new SkillRefused(`Patchbay refused the local skill "${skill.name}" (${skill.dir}): ${read.problem}.`);
    const files = file ? [] : skill.files.filter((f) => f.path !== 'SKILL.md');
    return { file: name, text: shown(name, read.text), files };
  }

  private find(key: string): Found {
    if (key.startsWith('local:')) {
      const scan = this.deps.local();
      const skill = scan.skills.find((s) => localKey(s.dir) === key);
      if (skill) {
        if (skill.problem)
          throw new HostCallError('forbidden', `Patchbay refused the local skill "${skill.name}" (${skill.dir}): ${skill.problem}.`);
        return { kind: 'local', skill, folder: scan.state.folder, info: () => this.localInfo(scan.state.folder, skill) };
      }
    } else if (key.startsWith('server:')) {
      for (const state of this.deps.servers.servers()) {
        const prefix = `server:${state.serverId}:`;
        if (!key.startsWith(prefix)) continue;
        const entry = [...(this.deps.servers.entries(state.serverId)?.entries ?? [])].find((e) => e.uri === key.slice(prefix.length));
        if (entry)
          return {
            kind: 'server',
            serverId: state.serverId,
            serverName: state.serverName,
            entry,
            info: () => this.serverInfo(state.serverId, state.serverName, entry),
          };
      }
    }
    throw new HostCallError('invalid_input', `No skill ${key} is known (its server may have stopped, or the folder changed).`);
  }

  private serverInfo(serverId: string, serverName: string, entry: HeldEntry): SkillInfo {
    const key = serverKey(serverId, entry.uri);
    const skillMd = entry.resources === 'dynamic' ? undefined : entry.resources.find((f) => f.uri === entry.uri);
    const bytes = entryBytes(entry);
    return {
      ...{ key, name: entry.name, description: entry.description, uri: entry.uri },
      source: { kind: 'server', serverId, serverName },
      enabled: this.deps.prefs.enabled(key, false, fingerprintOf(entry)),
      ...(this.deps.prefs.revoked(key, fingerprintOf(entry)) ? { changed: true as const } : {}),
      files: entry.resources === 'dynamic' ? 'dynamic' : entry.resources.length,
      ...(bytes !== undefined ? { bytes } : {}),
      ...this.serverCost(key, entry, skillMd?.size),
      ...(entry.problem
        ? { problem: `Patchbay refused the skill "${entry.name}" from the server "${serverName}": ${entry.problem}.` }
        : {}),
    };
  }

  /** The meter's count once the skill was loaded, else the estimate from its listed size (none for a dynamic skill). */
  private serverCost(key: string, entry: HeldEntry, skillMdBytes: number | undefined): { loadTokens?: number } {
    const counted = this.counted.get(countedKey(key, entry));
    if (counted !== undefined) return { loadTokens: counted };
    return skillMdBytes !== undefined ? { loadTokens: estimateTokens(skillMdBytes) } : {};
  }

  private localInfo(folder: string, skill: LocalSkill): SkillInfo {
    const key = localKey(skill.dir);
    return {
      ...{ key, name: skill.name, description: skill.description, uri: skill.skillMd },
      source: { kind: 'local', folder },
      enabled: this.deps.prefs.enabled(key, true),
      files: skill.files.length,
      bytes: skill.bytes,
      ...(skill.problem || skill.skillMdTokens === undefined ? {} : { loadTokens: skill.skillMdTokens }),
      ...(skill.problem ? { problem: `Patchbay refused the local skill "${skill.name}" (${skill.dir}): ${skill.problem}.` } : {}),
    };
  }
}

/** A file's text for the model, or a note in its place when it is binary (a NUL in its first 8 KB). */
function shown(file: string, text: string): string {
  return text.slice(0, 8_192).includes('\0') ? `[${file} is a binary file (${text.length} bytes as read); it is not shown.]` : text;
}

/** When `file` names a folder of the skill (not a file of it): its files, as the answer to the load. */
function folderOf(files: readonly { path: string; size?: number }[], file: string): Omit<SkillLoad, 'skill'> | undefined {
  const prefix = `${file.replace(/\/+$/, '')}/`;
  if (files.some((f) => f.path === file)) return undefined;
  const inside = files.filter((f) => f.path.startsWith(prefix));
  if (inside.length === 0) return undefined;
  return {
    file: prefix,
    text: `The folder ${prefix} of this skill holds ${inside.length} file${inside.length === 1 ? '' : 's'}.`,
    files: inside,
  };
}

/** A dynamic skill's folder as its server listed it, as the answer to the load. */
function dynamicFolder(listing: { children: DirChild[]; cut: boolean }, file: string): Omit<SkillLoad, 'skill'> {
  const prefix = `${file.replace(/\/+$/, '')}/`;
  const count = `${listing.children.length} entr${listing.children.length === 1 ? 'y' : 'ies'}`;
  const cut = listing.cut ? ' (the listing was cut at its limit)' : '';
  return {
    file: prefix,
    text: `The folder ${prefix} of this skill holds ${count} as its server lists it now${cut} (a folder ends in "/").`,
    files: listing.children,
  };
}

/** Server skills whose load cost is kept at most (a fleet's skills the user or the model loaded). */
const MAX_COUNTED = 10_000;

function countedKey(key: string, entry: HeldEntry): string {
  return `${key}\0${fingerprintOf(entry)}`;
}

type Found = { info(): SkillInfo } & (
  { kind: 'server'; serverId: string; serverName: string; entry: HeldEntry } | { kind: 'local'; skill: LocalSkill; folder: string }
);
