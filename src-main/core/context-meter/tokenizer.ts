/**
 * Token counts for the context meter, with js-tiktoken's o200k_base encoding. No provider publishes
 * its tokenizer for every model, so every count is an approximation (the UI says "≈"): close for
 * OpenAI's current models, within about a tenth for Claude's and local models.
 *
 * The ranks (2.3 MB of JavaScript, seconds to parse on a busy machine) are loaded on the first count,
 * not at start-up. Two costs are kept bounded:
 * - js-tiktoken's byte-pair merge is quadratic in the length of one regex piece, so a long run of
 *   letters (a 100 KB blob in a tool description) would stall the host for minutes; such runs
 *   are counted in slices of `RUN_SLICE` characters (the count differs from the exact one by at most
 *   a token per slice);
 * - long texts are counted in chunks, with a turn of the event loop between them, so the host keeps
 *   answering while a large text is counted.
 */
import type { Tiktoken } from 'js-tiktoken/lite';

/**
 * A run the encoder's pattern keeps as one piece (letters, or punctuation), longer than any word: it is
 * counted slice by slice. Digits need nothing (the pattern splits them in threes), nor does JSON
 * (its pieces are short).
 */
const LONG_RUN = /[\p{L}\p{M}]{49,}|[^\s\p{L}\p{N}]{49,}/gu;
const RUN_SLICE = 32;
/** Characters counted between two turns of the event loop. */
const CHUNK_CHARS = 16_384;

let loading: Promise<Tiktoken> | undefined;

/** The o200k_base encoder, loaded once on first use. */
export function loadEncoder(): Promise<Tiktoken> {
  loading ??= (async () => {
    const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
    return new Tiktoken(ranks);
  })();
  // A failed load (a broken install) is tried again on the next count rather than remembered.
  loading.catch(() => (loading = undefined));
  return loading;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tokens of `text` (approximate: see the module comment). */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  const encoder = await loadEncoder();
  let tokens = 0;
  let budget = CHUNK_CHARS;
  for (const part of splitLongRuns(text)) {
    tokens += encoder.encode(part).length;
    budget -= part.length;
    if (budget <= 0) {
      budget = CHUNK_CHARS;
      await yieldTurn();
    }
  }
  return tokens;
}

/**
 * The text in pieces short enough to encode quickly: ordinary text in chunks of about `CHUNK_CHARS`
 * cut at whitespace (where the encoder itself would split), long runs of one piece in short slices.
 */
export function* splitLongRuns(text: string): Generator<string> {
  let at = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    yield* chunksAtSpaces(text.slice(at, match.index));
    for (let i = 0; i < match[0].length; i += RUN_SLICE) yield match[0].slice(i, i + RUN_SLICE);
    at = match.index + match[0].length;
  }
  yield* chunksAtSpaces(text.slice(at));
}

function* chunksAtSpaces(text: string): Generator<string> {
  let at = 0;
  while (text.length - at > CHUNK_CHARS) {
    const space = text.lastIndexOf(' ', at + CHUNK_CHARS);
    const end = space > at ? space : at + CHUNK_CHARS;
    yield text.slice(at, end);
    at = end;
  }
  if (at < text.length) yield text.slice(at);
}
