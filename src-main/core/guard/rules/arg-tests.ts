/**
 * How a condition reads an argument: a dotted name reaches into objects; a list of values (a tool
 * taking several paths or URLs) is judged value by value — "outside", "host not in", "not matches",
 * "matches" and a comparison hold when any value does; "inside" and "host in" only when every value
 * does, so a list cannot hide one value among others.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuleCondition } from './rule-types';

/** The argument's value(s); undefined when the call does not have it. */
export function argValues(args: Record<string, unknown>, name: string): unknown[] | undefined {
  let value: unknown = args;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}

/** A path as the server would read it: `file:` URLs and `~` understood, `..` resolved. Relative paths resolve against `base`. */
export function normalisePath(value: string, base: string | undefined): string | undefined {
  let text = value.trim();
  if (text.startsWith('file:')) {
    try {
      text = fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  if (text === '~' || text.startsWith('~/')) text = path.join(os.homedir(), text.slice(1));
  if (!path.isAbsolute(text)) {
    if (!base) return undefined;
    text = path.join(base, text);
  }
  return path.resolve(text);
}

/** Whether `target` is `folder` or lies under it (both normalised). */
export function isInside(target: string, folder: string): boolean {
  const relative = path.relative(path.resolve(folder), target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function hostOf(value: string): string | undefined {
  try {
    return new URL(value).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    // A bare host name (a tool taking `host` rather than a URL).
    return /^[a-z0-9.-]+(:\d+)?$/i.test(value) ? value.toLowerCase().replace(/:\d+$/, '') : undefined;
  }
}

function hostListed(host: string, hosts: readonly string[]): boolean {
  return hosts.some((entry) => (entry.startsWith('*.') ? host === entry.slice(2) || host.endsWith(entry.slice(1)) : host === entry));
}

/** Whether one value passes the positive form of the test (inside, in, over, matches); undefined: it cannot say (not a string, not a number). */
function positive(condition: RuleCondition, value: unknown, folders: readonly string[]): boolean | undefined {
  switch (condition.kind) {
    case 'folders': {
      if (typeof value !== 'string') return undefined;
      // A relative path is read against the first shared folder, as the filesystem server does.
      const target = normalisePath(value, folders[0]);
      return target !== undefined && folders.some((folder) => isInside(target, folder));
    }
    case 'host': {
      if (typeof value !== 'string') return undefined;
      const host = hostOf(value);
      return host !== undefined && hostListed(host, condition.hosts);
    }
    case 'compare': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(number)) return undefined;
      const { op, limit } = condition;
      return op === '>' ? number > limit : op === '>=' ? number >= limit : op === '<' ? number < limit : number <= limit;
    }
    case 'matches':
      return typeof value === 'string' ? condition.pattern.test(value) : condition.pattern.test(JSON.stringify(value));
  }
}

/** Whether the condition holds for this call's arguments (an argument the call lacks: it does not). */
export function conditionHolds(condition: RuleCondition, args: Record<string, unknown>, folders: readonly string[]): boolean {
  const values = argValues(args, condition.arg);
  if (!values || values.length === 0) return false;
  const results = values.map((value) => positive(condition, value, folders));
  const negative = (condition.kind === 'folders' && !condition.inside) || ('negated' in condition && condition.negated);
  // A value the test cannot read (a number where a path belongs) counts against the call: outside, not listed.
  if (negative) return results.some((result) => result !== true);
  if (condition.kind === 'compare' || condition.kind === 'matches') return results.some((result) => result === true);
  return results.every((result) => result === true);
}
