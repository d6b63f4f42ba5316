/**
 * The rules in force, indexed by tool and server so a call looks only at the rules that can cover
 * it. What decides among the rules that apply: Deny over Ask over Allow, and among equals the
 * organisation's before the user's, then the first written. So a user's Allow can never undo an
 * organisation's Ask or Deny.
 */
import { conditionHolds } from './arg-tests';
import type { Rule } from './rule-types';

export interface RuleCall {
  serverName: string;
  tool: string;
  args: Record<string, unknown>;
}

const STRENGTH = { deny: 3, ask: 2, allow: 1 } as const;

export class RuleSet {
  private readonly byTool = new Map<string, Rule[]>();
  private readonly byServer = new Map<string, Rule[]>();
  private readonly everywhere: Rule[] = [];

  constructor(readonly rules: readonly Rule[]) {
    for (const rule of rules) {
      const { scope } = rule;
      if (scope.kind === 'all') this.everywhere.push(rule);
      else if (scope.kind === 'server') push(this.byServer, scope.server, rule);
      else push(this.byTool, scope.tool, rule);
    }
  }

  /** The rules whose scope covers this tool of this server (conditions not yet looked at). */
  candidates(serverName: string, tool: string): Rule[] {
    const forTool = (this.byTool.get(tool) ?? []).filter(
      (rule) => rule.scope.kind !== 'tool' || !rule.scope.server || rule.scope.server === serverName,
    );
    return [...this.everywhere, ...(this.byServer.get(serverName) ?? []), ...forTool];
  }

  /** Whether any candidate needs the server's shared folders (so they are looked up only then). */
  needsFolders(serverName: string, tool: string): boolean {
    return this.candidates(serverName, tool).some((rule) => rule.conditions.some((c) => c.kind === 'folders'));
  }

  /** The rule that decides this call, if any applies. */
  decide(call: RuleCall, folders: readonly string[]): Rule | undefined {
    let best: Rule | undefined;
    for (const rule of this.candidates(call.serverName, call.tool)) {
      if (best && !stronger(rule, best)) continue;
      if (rule.conditions.every((condition) => conditionHolds(condition, call.args, folders))) best = rule;
    }
    return best;
  }
}

/** Whether `rule` would win over `best` (see the module comment). */
function stronger(rule: Rule, best: Rule): boolean {
  if (STRENGTH[rule.decision] !== STRENGTH[best.decision]) return STRENGTH[rule.decision] > STRENGTH[best.decision];
  if (rule.source !== best.source) return rule.source === 'organisation';
  return rule.line < best.line;
}

function push(map: Map<string, Rule[]>, key: string, rule: Rule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}
