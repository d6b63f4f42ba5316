import { hiddenCharRisk, type CommandRisk } from '@contract';
import { CommandRiskList } from '../../ui/CommandRiskList';

/** One piece of the form as typed (a whole field, or one line of it). */
export interface TypedText {
  where: string;
  text: string;
}

/** Each line of a multi-line field, named by its line number (`Arguments, line 2`). */
export function linesOf(label: string, text: string): TypedText[] {
  return text.split('\n').map((line, index) => ({ where: `${label}, line ${index + 1},`, text: line }));
}

/**
 * Flags, as the user types, any invisible or direction-changing character in the form (pasted from a
 * web page, say), showing the text with escapes: what the field shows is not what would run.
 */
export function HiddenCharsNote({ texts }: { texts: readonly TypedText[] }) {
  const risks = texts.map(({ where, text }) => hiddenCharRisk(where, text)).filter((risk): risk is CommandRisk => risk !== undefined);
  return <CommandRiskList risks={risks} title="Hidden characters" />;
}
