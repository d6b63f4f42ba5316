import { z } from 'zod';
import { IdString, method } from './method';

/**
 * Skills (SEP-2640, the MCP skills extension, and local Agent Skills folders): what the model may load
 * on demand. The model sees each enabled skill's name and one-line description in the `load_skill`
 * host tool; loading one returns its `SKILL.md` body (and lists its files) as data. A server's skill
 * is fetched only when loaded, and verified against its entry (digest, size, frontmatter) before use.
 */

/** The extension's identifier in capabilities. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** The host tool the model loads a skill (or one of its files) with; answered by the host, never a server. */
export const SKILL_TOOL_NAME = 'load_skill';

/** Where a skill comes from: a server (by the host's id and its name) or the user's local skills folder. */
export type SkillSource = { kind: 'server'; serverId: string; serverName: string } | { kind: 'local'; folder: string };

/** One skill as the Skills tab and Settings › Skills list it. */
export interface SkillInfo {
  /**
   * The skill's identity in the host: `server:<serverId>:<uri of its SKILL.md>` or `local:<folder name>`
   * (a server's URI alone is never the key: two servers may serve the same URI).
   */
  key: string;
  /** The frontmatter's `name`. */
  name: string;
  /** The frontmatter's `description` (one line for the model; the UI may show it whole). */
  description: string;
  source: SkillSource;
  /** The `SKILL.md` URI (a server's) or absolute path (a local skill's). */
  uri: string;
  /** Offered to the model (the user's switch; persisted). */
  enabled: boolean;
  /**
   * A server's skill that was switched on, whose files (URIs or digests) the server has changed since:
   * it is off until the user switches it on again (the switch binds to the files it was given for).
   */
  changed?: true;
  /** Files of the skill (`SKILL.md` included), or 'dynamic' when the server publishes no manifest. */
  files: number | 'dynamic';
  /** Bytes of all its files (absent for a dynamic skill). */
  bytes?: number;
  /** What loading it adds to the context, ≈ tokens of its `SKILL.md` (estimated from its size; absent when unknown). */
  loadTokens?: number;
  /**
   * Why the skill cannot be loaded, in words naming the source, the skill and the cause (too large,
   * frontmatter without a name, a digest mismatch at the last load…). A refused skill is never offered.
   */
  problem?: string;
}

/** The local skills folder (Settings › Skills): where it is and whether it could be read. */
export interface LocalSkillsState {
  /** The folder (the `skillsFolder` setting); empty: none chosen. */
  folder: string;
  state: 'none' | 'ok' | 'missing' | 'unreadable';
  /** In words, when not ok (e.g. "The skills folder /x no longer exists."). */
  message?: string;
}

/** One server's skills as last listed. */
export interface ServerSkillsState {
  serverId: string;
  serverName: string;
  /** `listing` while the pages come; `error` when `skills/list` failed (the message says why). */
  state: 'listing' | 'ok' | 'error';
  /** Skills listed (including refused ones). */
  count: number;
  /** Set when the listing stopped at the host's bound (the rest is not shown). */
  truncated?: boolean;
  message?: string;
}

export interface SkillList {
  skills: SkillInfo[];
  local: LocalSkillsState;
  /** Servers that declare the skills extension (Ready ones). */
  servers: ServerSkillsState[];
}

/** A skill's content as the user inspects it before loading (verified exactly as a load is). */
export interface SkillContent {
  key: string;
  name: string;
  /** The `SKILL.md` text (frontmatter included). */
  text: string;
  /** The skill's files, as paths relative to its folder. */
  files: { path: string; size?: number }[];
  /** ≈ tokens the text costs the context when loaded (the host's quick estimate, four characters a token). */
  tokens: number;
}

const SkillKey = z.string().min(1).max(4_200);
const ListSkillsSchema = z
  .object({
    /** Only this server's skills (its Skills tab); absent: every source (Settings › Skills). */
    serverId: IdString.optional(),
  })
  .strict()
  .optional();
const SetSkillEnabledSchema = z.object({ key: SkillKey, enabled: z.boolean() }).strict();
const ByKeySchema = z.object({ key: SkillKey }).strict();

export const skillMethods = {
  /** The skills known now (servers' from their last listing, the local folder's as read now). */
  listSkills: method<typeof ListSkillsSchema, SkillList>(ListSkillsSchema),
  /** Switches a skill on or off for the model (persisted); resolves with the skill as it is now. */
  setSkillEnabled: method<typeof SetSkillEnabledSchema, SkillInfo>(SetSkillEnabledSchema),
  /**
   * Reads and verifies a skill's `SKILL.md` for the user to inspect (what a load would give the model).
   * Refused in words (a `HostCallError`) when verification fails.
   */
  readSkill: method<typeof ByKeySchema, SkillContent>(ByKeySchema),
};

export interface SkillEvents {
  /** The skills changed (a server listed, the folder changed, a switch): ask `listSkills` again. */
  skillsChanged: { serverId?: string };
}
