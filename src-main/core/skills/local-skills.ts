/**
 * The user's local skills: each subfolder of the skills folder (the `skillsFolder` setting) holding a
 * `SKILL.md` (Agent Skills format). Read with care: a folder that disappears, cannot be read or is a
 * symlink loop gives a state in words, never a throw; a link (or a `../` path) that leaves a skill's
 * folder refuses the skill; a skill past the per-skill limits is refused before any file is read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { formatBytes, type LocalSkillsState } from '@contract';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, nameProblem, parseSkillMd, type Frontmatter } from './skill-format';

/** Subfolders looked at at most (a skills folder is a handful of skills, not a disk). */
const MAX_LOCAL_SKILLS = 1_000;

export interface LocalSkill {
  /** The subfolder's name (the skill's key is `local:<dir>`). */
  dir: string;
  name: string;
  description: string;
  /** Absolute path of its `SKILL.md`. */
  skillMd: string;
  files: { path: string; size: number }[];
  bytes: number;
  skillMdBytes: number;
  /** What loading it costs, as the context meter counts its `SKILL.md` (absent when it is refused, or not counted yet). */
  skillMdTokens?: number;
  problem?: string;
  frontmatter?: Frontmatter;
}

/** What loading a skill of this text costs, or undefined to leave it unsaid in this scan. */
export type SkillCost = (skillMdText: string) => Promise<number | undefined>;

export interface LocalScan {
  state: LocalSkillsState;
  skills: LocalSkill[];
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A path's own real path inside `root` (resolved links), or why not. */
async function inside(root: string, target: string): Promise<{ real: string } | { problem: string; missing?: true }> {
  let real: string;
  try {
    real = await fs.realpath(target);
  } catch (error) {
    if (code(error) === 'ELOOP') return { problem: `${path.basename(target)} is a symlink loop` };
    if (code(error) === 'ENOENT') return { problem: `${path.basename(target)} does not exist`, missing: true };
    return { problem: `${path.basename(target)} cannot be read (${code(error) ?? (error as Error).message})` };
  }
  const relative = path.relative(root, real);
  if (relative.startsWith('..') || path.isAbsolute(relative))
    return { problem: `${path.basename(target)} links outside the skill's folder` };
  return { real };
}

/** The files of a skill folder (relative paths, sizes), stopping as soon as a limit is passed. */
async function walk(root: string): Promise<{ files: { path: string; size: number }[]; bytes: number } | { problem: string }> {
  const files: { path: string; size: number }[] = [];
  let bytes = 0;
  const pending = [''];
  while (pending.length > 0) {
    const relDir = pending.pop()!;
    const entries = await fs.readdir(path.join(root, relDir), { withFileTypes: true });
    for (const entry of entries) {
      const rel = path.join(relDir, entry.name);
      let abs = path.join(root, rel);
      if (entry.isSymbolicLink()) {
        const target = await inside(root, abs);
        if ('problem' in target) return { problem: `its file ${rel}: ${target.problem}` };
        abs = target.real;
      }
      const stat = await fs.stat(abs);
      if (stat.isDirectory()) {
        // A link to a folder inside the skill is walked as that folder is (once: the real path is inside).
        if (!entry.isSymbolicLink()) pending.push(rel);
        continue;
      }
      if (!stat.isFile()) continue;
      files.push({ path: rel.split(path.sep).join('/'), size: stat.size });
      bytes += stat.size;
      if (files.length > MAX_SKILL_FILES) return { problem: `it has more than ${MAX_SKILL_FILES} files, the most a skill may have` };
      if (bytes > MAX_SKILL_BYTES)
        return {
          problem: `its files are over ${formatBytes(MAX_SKILL_BYTES)} (at least ${formatBytes(bytes)}), the most a skill may have`,
        };
    }
  }
  return { files, bytes };
}

/** Reads one skill subfolder; undefined when it is not a skill (no SKILL.md). */
async function readSkill(root: string, dir: string, cost: SkillCost): Promise<LocalSkill | undefined> {
  const base: LocalSkill = {
    dir,
    name: dir,
    description: '',
    skillMd: path.join(root, dir, 'SKILL.md'),
    files: [],
    bytes: 0,
    skillMdBytes: 0,
  };
  const folder = await inside(root, path.join(root, dir));
  if ('problem' in folder) return { ...base, problem: folder.problem.replace(dir, 'its folder') };
  if (!(await fs.stat(folder.real)).isDirectory()) return undefined;
  try {
    await fs.lstat(path.join(folder.real, 'SKILL.md'));
  } catch {
    return undefined;
  }
  const walked = await walk(folder.real).catch((error: unknown) => ({
    problem: `it cannot be read (${code(error) ?? (error as Error).message})`,
  }));
  if ('problem' in walked) return { ...base, problem: walked.problem };
  const skillMd = walked.files.find((file) => file.path === 'SKILL.md');
  if (!skillMd) return { ...base, problem: 'its SKILL.md is not a file' };
  const text = await fs.readFile(path.join(folder.real, 'SKILL.md'), 'utf8');
  const parsed = parseSkillMd(text);
  const found = { ...base, files: walked.files, bytes: walked.bytes, skillMdBytes: skillMd.size };
  if ('error' in parsed) return { ...found, problem: parsed.error };
  const badName = nameProblem(parsed.frontmatter.name);
  if (badName) return { ...found, name: parsed.frontmatter.name, problem: badName };
  const { name, description } = parsed.frontmatter;
  const tokens = await cost(text);
  return { ...found, name, description, frontmatter: parsed.frontmatter, ...(tokens === undefined ? {} : { skillMdTokens: tokens }) };
}

/**
 * Reads the skills folder now, each good skill's cost said by `cost`. Never throws: a folder that is
 * gone or unreadable is a state.
 */
export async function scanLocalSkills(folder: string, cost: SkillCost): Promise<LocalScan> {
  if (!folder) return { state: { folder, state: 'none' }, skills: [] };
  let root: string;
  let dirs: string[];
  try {
    root = await fs.realpath(folder);
    const entries = await fs.readdir(root, { withFileTypes: true });
    dirs = entries
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort()
      .slice(0, MAX_LOCAL_SKILLS);
  } catch (error) {
    const why = code(error);
    if (why === 'ENOENT')
      return { state: { folder, state: 'missing', message: `The skills folder ${folder} no longer exists.` }, skills: [] };
    const message =
      why === 'ELOOP'
        ? `The skills folder ${folder} is a symlink loop.`
        : why === 'ENOTDIR'
          ? `The skills folder ${folder} is not a folder.`
          : `The skills folder ${folder} cannot be read (${why ?? (error as Error).message}).`;
    return { state: { folder, state: 'unreadable', message }, skills: [] };
  }
  const skills: LocalSkill[] = [];
  for (const dir of dirs) {
    // One skill that fails in an unforeseen way (removed mid-scan) is a problem of that skill alone.
    const skill = await readSkill(root, dir, cost).catch((error: unknown) => ({
      ...{ dir, name: dir, description: '', skillMd: path.join(root, dir, 'SKILL.md'), files: [], bytes: 0, skillMdBytes: 0 },
      problem: `it cannot be read (${code(error) ?? (error as Error).message})`,
    }));
    if (skill) skills.push(skill);
  }
  return { state: { folder, state: 'ok' }, skills };
}

/** Refuses a path given for a skill's file that is absolute or climbs out (`../`), in words. */
export function relativeFileProblem(file: string): string | undefined {
  if (file.includes('\0')) return 'the path holds a NUL character';
  if (path.isAbsolute(file) || /^[A-Za-z]:/.test(file) || file.startsWith('/') || file.startsWith('\\'))
    return `the path ${file} is absolute; give it relative to the skill's folder`;
  if (file.split(/[\\/]/).includes('..')) return `the path ${file} leaves the skill's folder`;
  return undefined;
}

/**
 * Reads a file of a local skill at load time, checked again (the folder may have changed since the
 * scan): inside the skill's folder after links are resolved, a regular file, within the size limit.
 */
export async function readLocalFile(skillDir: string, file: string): Promise<{ text: string; bytes: number } | { problem: string }> {
  const refused = relativeFileProblem(file);
  if (refused) return { problem: refused };
  let root: string;
  try {
    root = await fs.realpath(skillDir);
  } catch (error) {
    return { problem: code(error) === 'ENOENT' ? 'its folder no longer exists' : `its folder cannot be read (${code(error) ?? 'error'})` };
  }
  const target = await inside(root, path.join(root, file));
  if ('problem' in target) return { problem: target.missing ? `it has no file ${file}` : target.problem };
  const stat = await fs.stat(target.real);
  if (!stat.isFile()) return { problem: `${file} is not a file` };
  if (stat.size > MAX_SKILL_BYTES)
    return { problem: `${file} is ${formatBytes(stat.size)}, over the ${formatBytes(MAX_SKILL_BYTES)} a skill may have` };
  const buffer = await fs.readFile(target.real);
  return { text: buffer.toString('utf8'), bytes: buffer.length };
}
