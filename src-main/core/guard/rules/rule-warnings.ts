/**
 * Rules that parse but may not do what was meant: a tool, server or argument that no configured
 * server has. Only warned (a server not running yet may have the tool), and only against what is
 * known: tools of running servers, names of configured ones.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { Rule } from './rule-types';

export interface KnownServer {
  name: string;
  /** Its tools when it is running; undefined when not (its tools are not known). */
  tools?: readonly Tool[];
}

export interface RuleWarning {
  line: number;
  message: string;
}

function argNames(tool: Tool): string[] {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
  return Object.keys(properties ?? {});
}

export function ruleWarnings(rules: readonly Rule[], servers: readonly KnownServer[]): RuleWarning[] {
  const warnings: RuleWarning[] = [];
  const allKnown = servers.every((server) => server.tools !== undefined);
  for (const rule of rules) {
    const { scope, line } = rule;
    const named = scope.kind === 'all' ? undefined : scope.server;
    if (named !== undefined && !servers.some((server) => server.name === named)) {
      warnings.push({ line, message: `No server is named "${named}".` });
      continue;
    }
    const pool = servers.filter((server) => named === undefined || server.name === named);
    const tools = pool.flatMap((server) => server.tools ?? []);
    let matching = tools;
    if (scope.kind === 'tool') {
      matching = tools.filter((tool) => tool.name === scope.tool);
      if (matching.length === 0) {
        if (allKnown || pool.every((server) => server.tools !== undefined))
          warnings.push({ line, message: `No server has a tool "${scope.tool}"${named ? ` on "${named}"` : ''}.` });
        continue;
      }
    }
    if (scope.kind !== 'tool') continue;
    for (const condition of rule.conditions) {
      const top = condition.arg.split('.')[0];
      if (!matching.some((tool) => argNames(tool).includes(top)))
        warnings.push({ line, message: `The tool "${scope.tool}" has no argument "${top}".` });
    }
  }
  return warnings;
}
