/**
 * Token counts for the context meter, with the o200k_base encoding (gpt-tokenizer). No provider publishes
 * its tokenizer for every model, so every count is an approximation (the UI says "≈"): close for
 * OpenAI's current models, within about a tenth for Claude's and local models.
 *
 * The encoding runs on a worker thread (`tokenizer-worker.ts`); this module cuts a text into the
 * pieces it is counted as. A byte-pair merge can be quadratic in the length of one regex
 * piece, so a long run of letters (a 100 KB blob in a tool description) would keep the worker busy for
 * minutes, and every count behind it waiting; such runs are counted in slices of `RUN_SLICE`
 * characters (the count differs from the exact one by at most a token per slice).
 */

/**
 * A run the encoder's pattern keeps as one piece (letters, or punctuation), longer than any word: it is
 * counted slice by slice. Digits need nothing (the pattern splits them in threes), nor does JSON
 * (its pieces are short).
 */
const LONG_RUN = /[\p{L}\p{M}]{49,}|[^\s\p{L}\p{N}]{49,}/gu;
const RUN_SLICE = 32;

/** The text in pieces quick to encode: what lies between long runs as it is, long runs in short slices. */
export function* splitLongRuns(text: string): Generator<string> {
  let at = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > at) yield text.slice(at, match.index);
    for (let i = 0; i < match[0].length; i += RUN_SLICE) yield match[0].slice(i, i + RUN_SLICE);
    at = match.index + match[0].length;
  }
  if (at < text.length) yield text.slice(at);
}
