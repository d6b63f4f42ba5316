/**
 * A parsed rule: which calls it covers (all tools, one server's, one tool), the conditions on the
 * call's arguments (all must hold), and what it decides. The text it came from is kept, so the dialog,
 * the audit trail and the refusal sent to the model can name it.
 */
export type RuleDecision = 'allow' | 'ask' | 'deny';

export type RuleScope = { kind: 'all' } | { kind: 'server'; server: string } | { kind: 'tool'; tool: string; server?: string };

export type RuleCondition =
  | { kind: 'folders'; arg: string; inside: boolean }
  | { kind: 'host'; arg: string; negated: boolean; hosts: string[] }
  | { kind: 'compare'; arg: string; op: '>' | '>=' | '<' | '<='; limit: number }
  | { kind: 'matches'; arg: string; negated: boolean; pattern: RegExp };

export interface Rule {
  decision: RuleDecision;
  scope: RuleScope;
  conditions: RuleCondition[];
  /** 1-based line of the rule in its text. */
  line: number;
  /** The line as written (trimmed, comment removed). */
  text: string;
  /** Where it comes from: the user's rules or the organisation's (which the user's cannot loosen). */
  source: 'user' | 'organisation';
}

/** A rule that does not parse: where, and why. */
export interface RuleSyntaxError {
  line: number;
  column: number;
  message: string;
}
