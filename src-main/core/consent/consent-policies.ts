/**
 * Standing decisions and how they apply to a model-initiated call. Precedence, per tool:
 * "always deny" > "always ask" > "always allow" (pinned) > "trust this server" (pinned) > ask.
 * A pinned decision whose tool changed (a different definition hash) is suspended: the call asks
 * again and shows the change. A deny never needs pinning: it holds whatever the tool becomes.
 */
import type { Tool } from '@modelcontextprotocol/client';
import {
  type DiffLine,
  HostCallError,
  RISKY_HINT_WORDS,
  riskyHintsOf,
  type RiskyHint,
  type StandingDecision,
  type ToolHints,
  type ToolPolicyState,
} from '@contract';
import type { Clock } from '../clock';
import { definitionHash, definitionOf } from '../tool-definition/definition';
import { diffDefinitions } from './definition-diff';
import type { PolicyRepository, ToolDecision } from './policy-repository';

const hintsOf = (tool: Tool): RiskyHint[] => riskyHintsOf(tool.annotations as ToolHints | undefined);

export type Verdict =
  | { kind: 'allow'; note: string }
  | { kind: 'deny'; note: string }
  | { kind: 'ask'; reason: 'ask' }
  | { kind: 'ask'; reason: 'changed'; diff: DiffLine[] };

export interface PolicyContext {
  /** The tools of a ready server; undefined when it is not running. */
  tools(serverId: string): Tool[] | undefined;
  serverName(serverId: string): string | undefined;
}

export class ConsentPolicies {
  constructor(
    private readonly repo: PolicyRepository,
    private readonly context: PolicyContext,
    private readonly clock: Clock,
  ) {}

  /** What applies to a model-initiated call of `tool` right now. */
  evaluate(serverId: string, tool: Tool): Verdict {
    const own = this.repo.toolPolicy(serverId, tool.name);
    if (own?.decision === 'deny') return { kind: 'deny', note: 'Always deny (standing decision)' };
    if (own?.decision === 'ask') return { kind: 'ask', reason: 'ask' };
    const pinned = own?.pinned ?? this.repo.serverTrust(serverId)?.pinned[tool.name];
    if (!pinned) return { kind: 'ask', reason: 'ask' };
    if (pinned.hash === definitionHash(tool)) {
      return { kind: 'allow', note: own ? 'Always allow (standing decision)' : 'All tools of this server are trusted' };
    }
    return { kind: 'ask', reason: 'changed', diff: diffDefinitions(pinned.definition, definitionOf(tool)) };
  }

  /** The state the Tools panel shows for a tool. */
  stateOf(serverId: string, tool: Tool): ToolPolicyState {
    const verdict = this.evaluate(serverId, tool);
    if (verdict.kind === 'deny') return 'deny';
    if (verdict.kind === 'allow') return this.repo.toolPolicy(serverId, tool.name) ? 'allow' : 'trusted';
    return verdict.reason === 'changed' ? 'suspended' : 'ask';
  }

  /** "Always allow" from the dialog (or the panel): pinned to this definition. */
  allowAlways(serverId: string, tool: Tool): void {
    this.repo.setToolPolicy({
      serverId,
      tool: tool.name,
      decision: 'allow',
      pinned: { hash: definitionHash(tool), definition: definitionOf(tool) },
      createdAt: this.clock.now().toISOString(),
    });
  }

  /** Sets (or with `default`, removes) a tool's own decision. `allow` needs the server running, to pin. */
  setToolPolicy(serverId: string, toolName: string, policy: ToolDecision | 'default'): void {
    if (policy === 'default') {
      this.repo.deleteToolPolicy(serverId, toolName);
      return;
    }
    if (policy === 'allow') {
      this.allowAlways(serverId, this.liveTool(serverId, toolName));
      return;
    }
    this.repo.setToolPolicy({ serverId, tool: toolName, decision: policy, createdAt: this.clock.now().toISOString() });
  }

  /**
   * Trusts every tool the server has now (each pinned), or stops trusting it. Tools that may do damage
   * (see `riskyHintsOf`) must be among `confirmed` (the user was shown
   * them by name); otherwise nothing is trusted and the error names the ones missing.
   */
  setServerTrust(serverId: string, trusted: boolean, confirmed: readonly string[] = []): void {
    if (!trusted) {
      this.repo.deleteServerTrust(serverId);
      return;
    }
    const tools = this.context.tools(serverId);
    if (!tools) throw new HostCallError('invalid_input', 'Start the server first: trust is given to the tools it has now.');
    const unconfirmed = tools.filter((tool) => hintsOf(tool).length > 0 && !confirmed.includes(tool.name));
    if (unconfirmed.length > 0) {
      const named = unconfirmed.map(
        (tool) =>
          `${tool.name} (${hintsOf(tool)
            .map((hint) => RISKY_HINT_WORDS[hint])
            .join(', ')})`,
      );
      throw new HostCallError(
        'invalid_input',
        `Trusting all tools of "${this.context.serverName(serverId) ?? serverId}" needs your confirmation for what their hints say: ${named.join('; ')}. Nothing was trusted.`,
        [{ path: ['confirmedTools'], message: `Confirm ${unconfirmed.map((tool) => tool.name).join(', ')}` }],
      );
    }
    const pinned = Object.fromEntries(tools.map((tool) => [tool.name, { hash: definitionHash(tool), definition: definitionOf(tool) }]));
    this.repo.setServerTrust({ serverId, pinned, createdAt: this.clock.now().toISOString() });
  }

  /** Removes one standing decision by its list id. */
  revoke(id: string): void {
    const [kind, serverId, ...rest] = id.split(':');
    const removed =
      kind === 'server' ? this.repo.deleteServerTrust(serverId) : kind === 'tool' && this.repo.deleteToolPolicy(serverId, rest.join(':'));
    if (!removed) throw new HostCallError('invalid_input', 'That decision no longer exists.');
  }

  /** Every standing decision, for Settings. */
  list(): StandingDecision[] {
    const out: StandingDecision[] = [];
    for (const policy of this.repo.allToolPolicies()) {
      const live = this.context.tools(policy.serverId)?.find((tool) => tool.name === policy.tool);
      const suspended = policy.pinned !== undefined && live !== undefined && definitionHash(live) !== policy.pinned.hash;
      out.push({
        id: `tool:${policy.serverId}:${policy.tool}`,
        kind: 'tool',
        serverId: policy.serverId,
        serverName: this.context.serverName(policy.serverId) ?? policy.serverId,
        tool: policy.tool,
        decision: policy.decision,
        state: suspended ? 'suspended' : 'active',
        since: policy.createdAt,
      });
    }
    for (const trust of this.repo.allServerTrust()) {
      const live = this.context.tools(trust.serverId);
      const suspended =
        live?.some((tool) => trust.pinned[tool.name] !== undefined && trust.pinned[tool.name].hash !== definitionHash(tool)) ?? false;
      out.push({
        id: `server:${trust.serverId}`,
        kind: 'server',
        serverId: trust.serverId,
        serverName: this.context.serverName(trust.serverId) ?? trust.serverId,
        decision: 'trust',
        state: suspended ? 'suspended' : 'active',
        since: trust.createdAt,
      });
    }
    return out.sort((a, b) => a.serverName.localeCompare(b.serverName) || (a.tool ?? '').localeCompare(b.tool ?? ''));
  }

  private liveTool(serverId: string, name: string): Tool {
    const tool = this.context.tools(serverId)?.find((candidate) => candidate.name === name);
    if (!tool)
      throw new HostCallError('invalid_input', `Start the server first: "always allow" is pinned to the tool's current definition.`);
    return tool;
  }
}
