/** Builds one line of the rule language from the editor's choices (the host parses it again when saved). */
import type { RuleDecision } from '@contract';

export const CONDITIONS = {
  outside: 'is outside the shared folders',
  inside: 'is inside the shared folders',
  'host-not-in': 'has a host not in',
  'host-in': 'has a host in',
  over: 'is over',
  matches: 'matches the pattern',
  'not-matches': 'does not match the pattern',
} as const;
export type ConditionChoice = keyof typeof CONDITIONS;

/** Whether the condition takes a value (hosts, a number, a pattern). */
export const takesValue = (condition: ConditionChoice) => condition !== 'outside' && condition !== 'inside';

const name = (text: string) => (/^[\p{L}\p{N}_.*:@$~+-]+$/u.test(text) ? text : JSON.stringify(text));

export interface RuleChoice {
  decision: RuleDecision;
  tool: string;
  server?: string;
  arg: string;
  condition: ConditionChoice;
  value: string;
}

export function ruleLine(choice: RuleChoice): string {
  const scope = choice.tool
    ? `tool ${name(choice.tool)}${choice.server ? ` on ${name(choice.server)}` : ''}`
    : choice.server
      ? `server ${name(choice.server)}`
      : 'any tool';
  if (!choice.arg) return `${choice.decision} ${scope}`;
  const value = choice.value.trim();
  const test = {
    outside: 'outside shared folders',
    inside: 'inside shared folders',
    'host-not-in': `host not in [${value
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(name)
      .join(', ')}]`,
    'host-in': `host in [${value
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(name)
      .join(', ')}]`,
    over: `> ${value}`,
    matches: `matches /${value.replace(/\//g, '\\/')}/`,
    'not-matches': `not matches /${value.replace(/\//g, '\\/')}/`,
  }[choice.condition];
  return `${choice.decision} ${scope} if ${name(choice.arg)} ${test}`;
}
