/**
 * The context meter's token counter as an area of its own, made before the areas that count with it
 * (the skills, for what loading a skill costs; the chat, for the meter), so both count with one
 * tokenizer and say the same figure for the same text. Its worker stops last of the two.
 */
import { TokenCounter } from './token-counter';
import type { TokenizerWorkerOptions } from './tokenizer-worker';

export interface ContextMeterArea {
  readonly name: 'context-meter';
  /** Tokens of texts, on a worker thread (started by the first count), remembered by hash. */
  readonly counter: TokenCounter;
  /** Stops the tokenizer's worker; counts still waiting fail. */
  dispose(): Promise<void>;
}

export function createContextMeterArea(deps: { tokenizer?: TokenizerWorkerOptions }): ContextMeterArea {
  const counter = new TokenCounter(deps.tokenizer);
  return { name: 'context-meter', counter, dispose: () => counter.dispose() };
}
