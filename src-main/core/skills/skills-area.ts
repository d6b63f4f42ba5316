/**
 * The skills area for the composition root: servers' skills (listed when a server that declares the
 * extension becomes Ready, dropped when it stops), the local skills folder (read at start, when the
 * setting changes, when the user lists skills and when the chat's view of it is stale), the user's switches, the contract's methods, and
 * what the chat needs: the skills to offer the model and the loading of one.
 */
import type Database from 'better-sqlite3';
import { HostCallError, SKILLS_EXTENSION_ID, type HandlersFor, type skillMethods } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import type { LiveServer } from '../servers/connection/live-server';
import { scanLocalSkills, type LocalScan } from './local-skills';
import { SkillCatalog, type AdvertisedSkill, type SkillLoad } from './skill-catalog';
import { SkillPrefs } from './skill-prefs';
import { knownSkillTokens, skillTokens, type CountTokens, type KnownTokens } from './skill-tokens';
import { declaresSkills, ServerSkills, SkillRefused } from './server-skills';

/** The local folder is read again for the chat when its last scan is older than this. */
const LOCAL_FRESH_MS = 10_000;

export interface SkillsAreaDeps {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  connection(serverId: string): LiveServer | undefined;
  /** The `skillsFolder` setting now. */
  folder(): string;
  /** The context meter's token count of a text: what loading a local skill costs (absent: the estimate). */
  countTokens?: CountTokens;
  /** The context meter's count of a text it has counted already (counts nothing). */
  knownTokens?: KnownTokens;
}

export interface SkillsArea {
  readonly name: 'skills';
  readonly plugin: ConnectionPlugin;
  readonly handlers: HandlersFor<typeof skillMethods>;
  /** The skills the model is offered now (enabled, not refused). */
  forModel(): AdvertisedSkill[];
  /** Loads a skill (or a file of it) for the model; a refusal rejects with `SkillRefused` (words naming source, skill and cause). */
  load(skill: AdvertisedSkill, file: string | undefined, signal?: AbortSignal): Promise<SkillLoad>;
  start(): void;
  dispose(): void;
}

export function createSkillsArea(deps: SkillsAreaDeps): SkillsArea {
  const { events, clock } = deps;
  const changed = (serverId?: string) => events.emit('skillsChanged', serverId ? { serverId } : {});
  const servers = new ServerSkills(deps.connection, changed);
  let scan: LocalScan = { state: { folder: '', state: 'none' }, skills: [] };
  let scannedAt = 0;
  // What loading a local skill costs is counted for the listing, which shows it. The other scans (at
  // start, on a new folder, for the chat) need names and descriptions: they take the counts the meter
  // already has and count nothing, so a skills folder alone does not start the tokenizer's worker (about
  // 0.2 s of CPU while the host starts); the first listing, or the meter's first count, does.
  const costs = {
    counted: (text: string) => skillTokens(text, deps.countTokens),
    known: (text: string) => knownSkillTokens(text, deps.knownTokens),
  };
  const scanOnce = async (counting: boolean) => {
    const next = await scanLocalSkills(deps.folder(), counting ? costs.counted : costs.known);
    const differs = JSON.stringify(next) !== JSON.stringify(scan);
    scan = next;
    scannedAt = clock.now().getTime();
    // Said only when something changed: a window that lists again on the event must not loop.
    if (differs) changed();
  };
  let scanning: { counting: boolean; done: Promise<void> } | undefined;
  // One scan at a time: a call during a scan waits for it, and scans again after it only to count what it does not.
  const rescan = (counting = false): Promise<void> => {
    if (scanning && (scanning.counting || !counting)) return scanning.done;
    const done = (scanning?.done.catch(() => undefined) ?? Promise.resolve()).then(() => scanOnce(counting));
    const current = { counting, done };
    scanning = current;
    const over = () => {
      if (scanning === current) scanning = undefined;
    };
    done.then(over, over);
    return done;
  };
  const prefs = new SkillPrefs(deps.db);
  const catalog = new SkillCatalog({ servers, prefs, local: () => scan, now: () => clock.now(), countTokens: deps.countTokens });
  let lastFolder = deps.folder();
  const unsubscribe = events.subscribe((event) => {
    if (event.name === 'settingsChanged' && event.payload.skillsFolder !== lastFolder) {
      lastFolder = event.payload.skillsFolder;
      void rescan();
    }
  });

  const plugin: ConnectionPlugin = {
    // Patchbay reads skills: said in its capabilities (servers declare theirs; `extensions` merge per key).
    capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } },
    onStateChange: (server, state) => {
      if (state.status === 'ready' && declaresSkills(state.server.capabilities)) void servers.list(server.id, server.name);
      else if (state.status !== 'ready') servers.drop(server.id);
    },
    onRemoved: (server) => {
      servers.drop(server.id);
      prefs.forget(`server:${server.id}:`);
    },
  };

  return {
    name: 'skills',
    plugin,
    handlers: {
      listSkills: async (input) => {
        await rescan(true);
        return catalog.list(input?.serverId);
      },
      setSkillEnabled: async ({ key, enabled }) => {
        const skill = catalog.setEnabled(key, enabled);
        changed(skill.source.kind === 'server' ? skill.source.serverId : undefined);
        return skill;
      },
      readSkill: async ({ key }) => {
        try {
          return await catalog.read(key);
        } catch (error) {
          if (error instanceof SkillRefused) throw new HostCallError('forbidden', error.message);
          throw error;
        }
      },
    },
    forModel: () => {
      if (clock.now().getTime() - scannedAt > LOCAL_FRESH_MS) void rescan();
      return catalog.forModel();
    },
    load: (skill, file, signal) => catalog.load(skill, file, signal),
    start: () => void rescan(),
    dispose: () => unsubscribe(),
  };
}
