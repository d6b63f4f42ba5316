/**
 * What to do with a stdout message over the size limit: we never parse it, but if its first and
 * last bytes show it is the response to one of our requests, that request can fail at once
 * ("too large") instead of waiting for its timeout.
 */
import type { OversizedLine } from './line-framer';

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** A response starts with its result/error (optionally after jsonrpc and id), unlike a request. */
const RESPONSE_HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*${ID}\s*,\s*)?"(?:result|error)"\s*:`);
/** Serializers that put `result` first end the object with the id (the v1 SDK does). */
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of a discarded message if it is recognisably a response, else undefined. Never guesses
 * for anything that might be a server request: answering the wrong id would fail the wrong call.
 */
export function responseIdOf(info: Pick<OversizedLine, 'head' | 'tail'>): string | number | undefined {
  const head = RESPONSE_HEAD.exec(info.head);
  if (!head) return undefined;
  const raw = head[1] ?? ID_AT_END.exec(info.tail)?.[1];
  if (raw === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(raw);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
