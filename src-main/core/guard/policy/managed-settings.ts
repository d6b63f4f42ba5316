/**
 * The organisation's policy: a read-only `managed-settings.json` an administrator puts in the
 * machine's admin location (or the file `PATCHBAY_MANAGED_SETTINGS` names, for admins and tests).
 * Patchbay never writes it. Entries of `deniedServers` / `allowedServers` name a server, the start
 * of its command line, or its URL (a glob), as Claude Code's managed MCP settings do.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseRules } from '../rules/rule-parser';
import type { Rule } from '../rules/rule-types';

const ServerMatcherSchema = z.union([
  z.object({ name: z.string().min(1) }).strict(),
  z.object({ command: z.array(z.string()).min(1) }).strict(),
  z.object({ url: z.string().min(1) }).strict(),
]);
export type ServerMatcher = z.infer<typeof ServerMatcherSchema>;

const ManagedSettingsSchema = z
  .object({
    deniedServers: z.array(ServerMatcherSchema).optional(),
    allowedServers: z.array(ServerMatcherSchema).optional(),
    sandbox: z.enum(['required', 'optional']).optional(),
    /** Rules in the rule language: one text, or one rule a line of an array. */
    rules: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .passthrough();

/** The policy as read: what it decides, and the file it came from. */
export interface ManagedPolicy {
  file: string;
  deniedServers: ServerMatcher[];
  /** Absent: any server not denied. Present (even empty): only these. */
  allowedServers?: ServerMatcher[];
  sandboxRequired: boolean;
  rules: Rule[];
}

export type ManagedRead = { kind: 'absent' } | { kind: 'ok'; policy: ManagedPolicy } | { kind: 'error'; message: string };

/** Where the organisation's file is looked for on this machine. */
export function managedSettingsFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PATCHBAY_MANAGED_SETTINGS) return path.resolve(env.PATCHBAY_MANAGED_SETTINGS);
  if (platform === 'darwin') return '/Library/Application Support/Patchbay/managed-settings.json';
  if (platform === 'win32') return path.win32.join(env.ProgramData ?? 'C:\\ProgramData', 'Patchbay', 'managed-settings.json');
  return '/etc/patchbay/managed-settings.json';
}

/** Reads and checks the file; an absent file is no policy, anything wrong with it an error that says what. */
export async function readManagedSettings(file: string): Promise<ManagedRead> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'error', message: `It cannot be read: ${(error as Error).message}` };
  }
  return parseManagedSettings(file, text);
}

export function parseManagedSettings(file: string, text: string): ManagedRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'error', message: `It is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = ManagedSettingsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'error', message: `${issue.path.join('.') || 'The file'}: ${issue.message}` };
  }
  const { deniedServers, allowedServers, sandbox, rules } = parsed.data;
  const ruleText = Array.isArray(rules) ? rules.join('\n') : (rules ?? '');
  const { rules: parsedRules, errors } = parseRules(ruleText, 'organisation');
  if (errors.length > 0) {
    const [first] = errors;
    return { kind: 'error', message: `rules, line ${first.line}, column ${first.column}: ${first.message}` };
  }
  return {
    kind: 'ok',
    policy: {
      file,
      deniedServers: deniedServers ?? [],
      ...(allowedServers ? { allowedServers } : {}),
      sandboxRequired: sandbox === 'required',
      rules: parsedRules,
    },
  };
}
