/**
 * The Agent Skills format as the host checks it: a `SKILL.md` starts with YAML frontmatter holding at
 * least `name` and `description`; the name follows the naming rules (lowercase letters, digits and
 * hyphens, at most 64 characters). The limits are SEP-2640's per-skill limits, which every host must
 * accept and which Patchbay also applies to local skills (a skill past them is refused in words).
 */
import crypto from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';

/** Files per skill, `SKILL.md` included (SEP-2640 "Limits"). */
export const MAX_SKILL_FILES = 512;
/** Bytes of all a skill's files together (SEP-2640 "Limits": 16 MiB). */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Characters of a description the model is shown in the skill tool (one line). */
export const ADVERTISED_DESCRIPTION_CHARS = 200;

export type Frontmatter = { name: string; description: string } & Record<string, unknown>;

/** The Agent Skills naming rule: 1–64 of a-z, 0-9 and single hyphens, not at either end. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return 'its name must be 1 to 64 characters';
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) return `its name "${name}" may hold only lowercase letters, digits and single hyphens`;
  return undefined;
}

/** A frontmatter object's problem (no name, no description), in words; undefined when it is usable. */
export function frontmatterProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'its frontmatter is not a YAML mapping';
  const { name, description } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') return 'its frontmatter has no name';
  if (typeof description !== 'string' || description.trim() === '') return 'its frontmatter has no description';
  return undefined;
}

/**
 * Splits a `SKILL.md` into its frontmatter (parsed) and body. An error in words when there is no
 * frontmatter, it is not YAML, or it lacks a name or description.
 */
export function parseSkillMd(text: string): { frontmatter: Frontmatter; body: string } | { error: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { error: 'its SKILL.md does not begin with YAML frontmatter (a "---" block)' };
  let value: unknown;
  try {
    // Small documents only (a frontmatter block); aliases are refused so a "billion laughs" cannot expand.
    value = parseYaml(match[1]!, { maxAliasCount: 0 });
  } catch (error) {
    return { error: `its frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]})` };
  }
  const problem = frontmatterProblem(value);
  if (problem) return { error: problem };
  return { frontmatter: value as Frontmatter, body: text.slice(match[0].length) };
}

/** Whether the frontmatter read from a `SKILL.md` is the one its entry announced, field by field. */
export function sameFrontmatter(read: Record<string, unknown>, announced: Record<string, unknown>): string | undefined {
  const keys = new Set([...Object.keys(read), ...Object.keys(announced)]);
  for (const key of keys) {
    if (!isDeepStrictEqual(normalise(read[key]), normalise(announced[key]))) return key;
  }
  return undefined;
}

/** YAML dates and JSON strings compare equal; everything else as it is. */
function normalise(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** `sha256:<hex>` of these bytes (SEP-2640's digest format). */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${crypto.createHash('sha256').update(bytes).digest('hex')}`;
}

/** One line of a description, cut for the model's list. */
export function oneLine(description: string, max = ADVERTISED_DESCRIPTION_CHARS): string {
  const line = description.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
