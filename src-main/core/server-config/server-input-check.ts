import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HostCallError, type ServerInputParsed } from '@contract';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerConfigRepository, StoredEnvVar, StoredServer } from './server-config-repository';
import { checkSignInSecrets, sealSignInSecrets, type SealedSignIn } from './sign-in-secrets';

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
  if (input.transport === 'stdio' && input.cwd && !lenient) {
    const dir = resolveCwd(input.cwd);
    if (!fs.existsSync(dir)) issues.push({ path: ['cwd'], message: `No such directory: ${dir}` });
    else if (!fs.statSync(dir).isDirectory()) issues.push({ path: ['cwd'], message: `Not a directory: ${dir}` });
  }
  checkPairs('env', input.env, existing?.env, lenient, issues, (key) => key);
  // Header names are case-insensitive: "Authorization" and "authorization" are the same header.
  checkPairs('headers', input.headers, existing?.headers, lenient, issues, (key) => key.toLowerCase());
  if (!lenient) checkSignInSecrets(input, existing, issues);
  return issues;
}

/** Unique keys, and a value for every pair that has none stored (a secret may keep its stored one). */
function checkPairs(
  field: 'env' | 'headers',
  pairs: readonly { key: string; value?: string; secret: boolean }[],
  stored: readonly StoredEnvVar[] | undefined,
  lenient: boolean,
  issues: FieldIssue[],
  identity: (key: string) => string,
): void {
  const seen = new Set<string>();
  pairs.forEach((pair, index) => {
    if (seen.has(identity(pair.key))) issues.push({ path: [field, index, 'key'], message: `${pair.key} is set twice` });
    seen.add(identity(pair.key));
    const kept = stored?.find((v) => v.key === pair.key);
    if (pair.value === undefined && !(pair.secret && (kept?.sealed || lenient))) {
      issues.push({ path: [field, index, 'value'], message: `Enter a value for ${pair.key}` });
    }
  });
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
 * The environment, headers and sign-in credentials to store: new values of secrets sealed, secrets
 * sent without a value keep their stored blob (the renderer never has it), plain values as they are.
 * A stdio server keeps no headers and a remote one no environment, so switching transport leaves no
 * stray secret behind (`sealSignInSecrets` does the same for the sign-in's credentials).
 */
export async function sealServerPairs(
  input: ServerInputParsed,
  box: SecretBox,
  existing?: StoredServer,
): Promise<{ env: StoredEnvVar[]; headers: StoredEnvVar[] } & SealedSignIn> {
  const remote = input.transport === 'http';
  return {
    env: remote ? [] : await sealPairs(input.env, box, existing?.env),
    headers: remote ? await sealPairs(input.headers, box, existing?.headers) : [],
    ...(await sealSignInSecrets(input, box, existing)),
  };
}

async function sealPairs(
  pairs: readonly { key: string; value?: string; secret: boolean }[],
  box: SecretBox,
  stored: readonly StoredEnvVar[] | undefined,
): Promise<StoredEnvVar[]> {
  return Promise.all(
    pairs.map(async (pair): Promise<StoredEnvVar> => {
      if (!pair.secret) return { key: pair.key, value: pair.value ?? '' };
      if (pair.value !== undefined) return { key: pair.key, sealed: await box.seal(pair.value) };
      // No new value: keep the stored one; a server saved incomplete gets an empty one to fill later.
      const kept = stored?.find((v) => v.key === pair.key)?.sealed;
      return { key: pair.key, sealed: kept ?? (await box.seal('')) };
    }),
  );
}
