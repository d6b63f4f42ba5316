import { z } from 'zod';
import { IdString, method, NoInput } from './method';
import { ToolArgsSchema } from './tools';

/**
 * Rules on what a call may do (the guard area): conditions on a call's arguments → Allow, Ask or
 * Deny, stored as text in the rule language (docs/security.md, "Rules"), one rule a line. The
 * organisation's policy (a read-only `managed-settings.json`) adds rules the user's cannot loosen,
 * and says which servers may be added and started.
 */

export type RuleDecision = 'allow' | 'ask' | 'deny';

/** One rule in force, as Settings › Rules lists it. */
export interface RuleView {
  line: number;
  /** As written. */
  text: string;
  /** In words: "When `read_file`'s `path` is outside the shared folders → Deny". */
  words: string;
  decision: RuleDecision;
  source: 'user' | 'organisation';
}

/** A rule that parses but names a tool, server or argument that no server has (warned, still in force). */
export interface RuleWarningView {
  line: number;
  message: string;
}

/** The organisation's policy, as the user sees it ("Set by your organisation"). */
export interface OrganisationPolicyView {
  file: string;
  rules: RuleView[];
  deniedServers: string[];
  /** Absent: any server that is not denied. */
  allowedServers?: string[];
  sandboxRequired: boolean;
}

export interface RulesView {
  /** The user's rules, as saved. */
  text: string;
  rules: RuleView[];
  warnings: RuleWarningView[];
  organisation?: OrganisationPolicyView;
  /** The organisation's file cannot be read or is wrong: the banner. The last policy read stays in force. */
  organisationProblem?: { file: string; message: string };
}

/** What "Test a rule" says: the decision and the rule that made it; nothing runs. */
export interface RuleTestResult {
  /** `none`: no rule applies; standing decisions and the consent dialog decide as usual. */
  decision: RuleDecision | 'none';
  rule?: RuleView;
  /** One sentence for the dialog. */
  summary: string;
}

const SetRulesSchema = z.object({ text: z.string().max(200_000) }).strict();
const TestRuleSchema = z
  .object({
    serverId: IdString,
    tool: z.string().min(1).max(500),
    args: ToolArgsSchema,
    /** Rules to test instead of the saved ones (the editor's draft); the organisation's always apply. */
    text: z.string().max(200_000).optional(),
  })
  .strict();

export const ruleMethods = {
  getRules: method<typeof NoInput, RulesView>(NoInput),
  /** Saves the user's rules. A text with a line that does not parse is refused whole (`invalid_input` naming line and column); the previous rules stay in force. */
  setRules: method<typeof SetRulesSchema, RulesView>(SetRulesSchema),
  testRule: method<typeof TestRuleSchema, RuleTestResult>(TestRuleSchema),
};

export interface RuleEvents {
  /** The user's rules, the organisation's policy or the servers they are checked against changed. */
  rulesChanged: RulesView;
}
