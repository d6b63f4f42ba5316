/**
 * What loading a skill costs, counted as the context meter counts it: its `SKILL.md` text through the
 * meter's token counter (context-meter/), so a skill's "≈ N tokens to load" and the meter after the
 * load agree. Without a counter, or when counting fails, the quick estimate stands in.
 */
import { estimateTokens } from '../tool-search/token-estimate';

/** The meter's count of a text (`TokenCounter.count`; the first one starts the tokenizer's worker). */
export type CountTokens = (text: string) => Promise<number>;
/** The meter's count of a text it has counted already, else undefined (`TokenCounter.known`: counts nothing). */
export type KnownTokens = (text: string) => Promise<number> | undefined;

export async function skillTokens(text: string, count: CountTokens | undefined): Promise<number> {
  if (count) {
    try {
      return await count(text);
    } catch {
      // The tokenizer's worker failed (it is restarted on the next count): the estimate for now.
    }
  }
  return estimateTokens(text.length);
}

/** What loading a skill costs if the meter has counted its text already; undefined (not said yet) otherwise. */
export async function knownSkillTokens(text: string, known: KnownTokens | undefined): Promise<number | undefined> {
  try {
    return await known?.(text);
  } catch {
    return undefined;
  }
}
