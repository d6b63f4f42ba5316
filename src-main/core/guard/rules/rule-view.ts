/** A parsed rule as the contract shows it. */
import type { RuleView } from '@contract';
import type { Rule } from './rule-types';
import { ruleWords } from './rule-words';

const views = new WeakMap<Rule, RuleView>();

/** Made once per rule (a rule is immutable once parsed): the router names the deciding rule on every call. */
export function ruleView(rule: Rule): RuleView {
  let view = views.get(rule);
  if (!view) {
    view = { line: rule.line, text: rule.text, words: ruleWords(rule), decision: rule.decision, source: rule.source };
    views.set(rule, view);
  }
  return view;
}
