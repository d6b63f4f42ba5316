import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerInputParsed } from '../../../src-preload/contract';
import { HostCallError } from '../rpc/dispatch';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerConfigRepository, StoredEnvVar, StoredServer } from './server-config-repository';

export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The checks zod cannot make because they need the world: a unique name, an existing working
 * directory, unique variable names, and a value for every new secret. All issues at once, each on
 * its field, so the form can show them together; nothing is saved when there is any.
 */
export function checkServerInput(
  input: ServerInputParsed,
  repo: ServerConfigRepository,
  existing?: StoredServer,
  { incompleteAllowed = false } = {},
): FieldIssue[] {
  // An imported server that still needs values (it is saved disabled) may lack a secret or a folder.
  const lenient = incompleteAllowed && !input.enabled;
  const issues: FieldIssue[] = [];
  if (repo.nameTaken(input.name, existing?.id)) issues.push({ path: ['name'], message: `A server named "${input.name}" already exists` });
  if (input.cwd && !lenient) {
    const dir = resolveCwd(input.cwd);
    if (!fs.existsSync(dir)) issues.push({ path: ['cwd'], message: `No such directory: ${dir}` });
    else if (!fs.statSync(dir).isDirectory()) issues.push({ path: ['cwd'], message: `Not a directory: ${dir}` });
  }
  const seen = new Set<string>();
  input.env.forEach((variable, index) => {
    if (seen.has(variable.key)) issues.push({ path: ['env', index, 'key'], message: `${variable.key} is set twice` });
    seen.add(variable.key);
    const stored = existing?.env.find((v) => v.key === variable.key);
    if (variable.value === undefined && !(variable.secret && (stored?.sealed || lenient))) {
      issues.push({ path: ['env', index, 'value'], message: `Enter a value for ${variable.key}` });
    }
  });
  return issues;
}

/** Throws the one error shape the form understands when there are issues. */
export function throwIfIssues(issues: FieldIssue[]): void {
  if (issues.length === 0) return;
  throw new HostCallError('invalid_input', issues.map((i) => i.message).join('; '), issues);
}

/** `~` and relative paths resolve against the home directory, like a shell would. */
export function resolveCwd(cwd: string): string {
  if (!cwd) return os.homedir();
  if (cwd === '~' || cwd.startsWith('~/')) return path.join(os.homedir(), cwd.slice(1));
  return path.resolve(os.homedir(), cwd);
}

/**
 * The environment to store: new values of secrets sealed, secrets sent without a value keep their
 * stored blob (the renderer never has it), plain values as they are.
 */
export async function sealEnv(input: ServerInputParsed, box: SecretBox, existing?: StoredServer): Promise<StoredEnvVar[]> {
  return Promise.all(
    input.env.map(async (variable): Promise<StoredEnvVar> => {
      if (!variable.secret) return { key: variable.key, value: variable.value ?? '' };
      if (variable.value !== undefined) return { key: variable.key, sealed: await box.seal(variable.value) };
      // No new value: keep the stored one; a server saved incomplete gets an empty one to fill later.
      const kept = existing?.env.find((v) => v.key === variable.key)?.sealed;
      return { key: variable.key, sealed: kept ?? (await box.seal('')) };
    }),
  );
}
