/**
 * What the tool router asks the guard, and what it answers: one place decides whether a call may go
 * out on its own, must be asked about, or is held — from the organisation's rules, the user's, and
 * the three-way risk — before standing decisions are even looked at.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { RuleView, ToolCallIdentity } from '@contract';

/** The call as the guard reads it: whose, and the definition itself rather than the tool's name. */
export interface GuardCall extends Pick<ToolCallIdentity, 'serverId' | 'serverName' | 'origin'> {
  tool: Tool;
  args: Record<string, unknown>;
  /** The chat's conversation, for the three-way risk. */
  conversationId?: string;
}

export type Judgement =
  /** Held: it never reaches the server. `message` goes to the model and the audit trail. */
  | { kind: 'deny'; rule: RuleView; message: string }
  /** A rule allows it: no question (unless `risk`, then it asks). */
  | { kind: 'allow'; rule: RuleView; risk?: string }
  /** A rule asks, or the three-way risk sets standing decisions aside. */
  | { kind: 'ask'; rule?: RuleView; risk?: string }
  /** No rule applies: standing decisions and the dialog decide as before. */
  | { kind: 'none' };

export interface CallGuard {
  judge(call: GuardCall): Promise<Judgement>;
  /**
   * A call came back: what the conversation took in (a shared folder's file, open-world content). A
   * promise only when it has to look the shared folders up; the caller waits for it before the result
   * goes back.
   */
  afterCall(call: GuardCall, succeeded: boolean): Promise<void> | undefined;
}

/** The rule as the dialog, the audit trail and the model's refusal name it. */
export function ruleLabel(rule: RuleView): string {
  return rule.source === 'organisation' ? `Set by your organisation: ${rule.words}` : `Rule on line ${rule.line}: ${rule.words}`;
}
