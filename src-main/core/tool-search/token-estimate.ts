/**
 * The quick token estimate, where the tokenizer would be too slow or too late: four characters a
 * token. Tool search's "automatic" switch estimates the tool definitions with it (decided while a
 * request is built, synchronously) and the context meter the draft's text (it changes on every
 * keystroke); the meter counts everything else with the tokenizer (context-meter/token-counter.ts). One rule, so the
 * switch and the meter's draft agree on what a character costs.
 */
export const CHARS_PER_TOKEN = 4;

/** Tokens that `chars` characters stand for, rounded up. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
