/**
 * The Answer limit (`maxAnswerChars`): how much one model answer may hold. A provider streaming
 * without end (50 MB of text) would otherwise grow the stored message, every event to the window and
 * the page itself without bound. The cap counts the characters of text and tool-call arguments as
 * they stream; the delta that crosses it is cut at the limit, and the turn then ends the request.
 */
import type { LlmStreamEvent } from '../llm/llm-types';
import { LlmError } from '../llm/llm-errors';

export class AnswerCap {
  private used = 0;

  constructor(readonly limit: number) {}

  /**
   * The event as far as it fits (`event` undefined when nothing of it does) and whether the answer
   * has now reached the limit (the caller then stops reading).
   */
  fit(event: LlmStreamEvent): { event: LlmStreamEvent | undefined; full: boolean } {
    if (event.type !== 'text-delta' && event.type !== 'input-delta') return { event, full: false };
    const piece = event.type === 'text-delta' ? event.text : event.partialJson;
    const room = this.limit - this.used;
    if (piece.length <= room) {
      this.used += piece.length;
      return { event, full: false };
    }
    this.used = this.limit;
    // Only text is kept cut; half a tool call's arguments is no call at all.
    if (event.type === 'text-delta' && room > 0) return { event: { ...event, text: piece.slice(0, room) }, full: true };
    return { event: undefined, full: true };
  }

  /** What the chat says when an answer was stopped at the limit. */
  error(): LlmError {
    const limit = this.limit.toLocaleString('en-US');
    return new LlmError(
      'answer-too-long',
      `The answer passed the limit of ${limit} characters, so Patchbay stopped reading it and ended the request; ` +
        `the first ${limit} characters are kept. To allow longer answers, raise "Answer limit (characters)" in Settings, then press Retry.`,
    );
  }
}
