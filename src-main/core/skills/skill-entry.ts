/**
 * A server's `Skill` entry (SEP-2640 "Skill Entries") read tolerantly: what the host keeps of it, and
 * why it cannot be loaded when it cannot (in words). The entry is the manifest every later read is
 * verified against; nothing of the skill's files is fetched to build it.
 */
import crypto from 'node:crypto';
import { frontmatterProblem, MAX_SKILL_BYTES, MAX_SKILL_FILES, nameProblem, type Frontmatter } from './skill-format';
import { formatBytes } from '@contract';

export interface SkillFileEntry {
  uri: string;
  digest: string;
  size: number;
}

/** An entry as held: its frontmatter verbatim, its files (or 'dynamic'), and its problem if refused. */
export interface HeldEntry {
  uri: string;
  name: string;
  description: string;
  frontmatter: Frontmatter;
  resources: SkillFileEntry[] | 'dynamic';
  /** The skill's root: its `SKILL.md` URI without `/SKILL.md`. */
  root: string;
  problem?: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The skill's name as its URI says it (the last segment before `/SKILL.md`). */
function uriName(uri: string): string | undefined {
  const match = /\/([^/]+)\/SKILL\.md$/.exec(uri) ?? /^[a-z][a-z0-9+.-]*:\/\/([^/]+)\/SKILL\.md$/i.exec(uri);
  return match?.[1];
}

/** An entry from `skills/list` or `skills/get`; undefined when it has no usable URI at all (skipped). */
export function readEntry(raw: unknown): HeldEntry | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { uri, frontmatter, resources } = raw as Record<string, unknown>;
  if (typeof uri !== 'string' || uri.length > 4_000 || !uri.endsWith('/SKILL.md')) return undefined;
  const root = uri.slice(0, -'/SKILL.md'.length);
  const fmProblem = frontmatterProblem(frontmatter);
  const fm = (fmProblem ? { name: uriName(uri) ?? uri, description: '' } : frontmatter) as Frontmatter;
  const held: HeldEntry = { uri, name: fm.name, description: fm.description, frontmatter: fm, resources: [], root };
  const problem = fmProblem ?? nameMismatch(uri, fm.name) ?? nameProblem(fm.name) ?? filesProblem(resources, uri, root);
  if (problem) return { ...held, problem };
  return { ...held, resources: resources as SkillFileEntry[] | 'dynamic' };
}

function nameMismatch(uri: string, name: string): string | undefined {
  const last = uriName(uri);
  return last !== name ? `its URI ends in "${last}" but its frontmatter names it "${name}"` : undefined;
}

/** Why an entry's `resources` cannot be used (absent, malformed, incomplete, outside the skill, over the limits). */
function filesProblem(resources: unknown, uri: string, root: string): string | undefined {
  // Generated files (no manifest): loaded with its folders listed at load time (`dynamic-skills.ts`).
  if (resources === 'dynamic') return undefined;
  if (!Array.isArray(resources)) return 'its entry has no list of files (resources), so it cannot be verified';
  if (resources.length > MAX_SKILL_FILES) return `it has ${resources.length} files, over the ${MAX_SKILL_FILES} a skill may have`;
  let total = 0;
  const seen = new Set<string>();
  for (const file of resources as unknown[]) {
    const { uri: fileUri, digest, size } = (file ?? {}) as Record<string, unknown>;
    if (typeof fileUri !== 'string' || typeof digest !== 'string' || typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
      return 'a file of its entry lacks a URI, a digest or a size';
    if (!DIGEST.test(digest)) return `the digest of ${fileUri} is not "sha256:" and 64 lowercase hex digits`;
    if (fileUri !== uri && !fileUri.startsWith(`${root}/`)) return `its file ${fileUri} is outside the skill's folder`;
    if (/(^|\/)\.\.?(\/|$)/.test(fileUri.slice(root.length))) return `its file ${fileUri} has a path that leaves the skill's folder`;
    seen.add(fileUri);
    total += size;
  }
  if (!seen.has(uri)) return 'its list of files does not include its SKILL.md';
  if (total > MAX_SKILL_BYTES) return `its files are ${formatBytes(total)}, over the ${formatBytes(MAX_SKILL_BYTES)} a skill may have`;
  return undefined;
}

/** Bytes of all of an entry's files. */
export function entryBytes(entry: HeldEntry): number | undefined {
  return entry.resources === 'dynamic' ? undefined : entry.resources.reduce((sum, file) => sum + file.size, 0);
}

/** The entry's files as the user's switch binds to them: every URI and digest (SEP-2640 "Content-bound approval"). */
export function fingerprintOf(entry: HeldEntry): string {
  // A dynamic skill binds the switch to being dynamic: publishing a manifest later (or dropping one) is a change.
  if (entry.resources === 'dynamic') return crypto.createHash('sha256').update(`dynamic\n${entry.uri}`).digest('hex');
  const pairs = entry.resources.map((file) => `${file.uri}\n${file.digest}`).sort();
  return crypto.createHash('sha256').update(pairs.join('\n')).digest('hex');
}
