/** A rule in words, as the consent dialog, the audit trail and the model's refusal name it. */
import type { Rule, RuleCondition } from './rule-types';

const DECISION_WORDS = { allow: 'Allow', ask: 'Ask', deny: 'Deny' } as const;

function conditionWords(condition: RuleCondition): string {
  switch (condition.kind) {
    case 'folders':
      return `is ${condition.inside ? 'inside' : 'outside'} the shared folders`;
    case 'host':
      return `has a host ${condition.negated ? 'not ' : ''}in ${condition.hosts.join(', ')}`;
    case 'compare': {
      const words = { '>': 'is over', '>=': 'is at least', '<': 'is under', '<=': 'is at most' } as const;
      return `${words[condition.op]} ${condition.limit}`;
    }
    case 'matches':
      return `${condition.negated ? 'does not match' : 'matches'} /${condition.pattern.source}/${condition.pattern.flags}`;
  }
}

/** "When `read_file`'s `path` is outside the shared folders → Deny". */
export function ruleWords(rule: Pick<Rule, 'scope' | 'conditions' | 'decision'>): string {
  const subject =
    rule.scope.kind === 'all'
      ? 'any tool'
      : rule.scope.kind === 'server'
        ? `a tool of \`${rule.scope.server}\``
        : `\`${rule.scope.tool}\`${rule.scope.server ? ` (on \`${rule.scope.server}\`)` : ''}`;
  const [first, ...rest] = rule.conditions;
  const when = first
    ? `When ${subject}'s \`${first.arg}\` ${conditionWords(first)}${rest.map((c) => ` and its \`${c.arg}\` ${conditionWords(c)}`).join('')}`
    : `When ${subject} is called`;
  return `${when} → ${DECISION_WORDS[rule.decision]}`;
}
