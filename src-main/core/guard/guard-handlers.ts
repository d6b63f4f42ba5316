/** The contract's rule methods. */
import type { HandlersFor, ruleMethods, RulesView, RuleTestResult } from '@contract';

export interface RuleHandlerDeps {
  view(): RulesView;
  save(text: string): RulesView;
  test(input: { serverId: string; tool: string; args: Record<string, unknown>; text?: string }): Promise<RuleTestResult>;
}

export function createRuleHandlers(deps: RuleHandlerDeps): HandlersFor<typeof ruleMethods> {
  return {
    getRules: async () => deps.view(),
    setRules: async ({ text }) => deps.save(text),
    testRule: (input) => deps.test(input),
  };
}
