/**
 * Pure derivations for the chat view: which messages become rows, the result of each tool call, and
 * the status its card shows. No React, no store: easy to test.
 */
import type { ChatMessage, ToolCallStatus, ToolResultBlock } from '@contract';
import type { ChatToolCall } from '../../stores/slices/tools-slice';

/** What a tool card shows: the statuses of the contract, plus `pending` (asked for, not started yet). */
export type CardStatus = ToolCallStatus | 'pending';

export const STATUS_LABELS: Record<CardStatus, string> = {
  pending: 'Pending',
  'waiting-approval': 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  error: 'Error',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

/** A message that only carries tool results is shown inside the cards of the calls, not as a row. */
export function isResultOnly(message: ChatMessage): boolean {
  return message.role === 'user' && message.content.length > 0 && message.content.every((b) => b.type === 'tool_result');
}

/** The messages shown as rows, in order. */
export function visibleRows(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.filter((m) => !isResultOnly(m));
}

/** Every loaded tool result by the id of its call. */
export function resultsById(messages: readonly ChatMessage[]): Map<string, ToolResultBlock> {
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of message.content) if (block.type === 'tool_result') results.set(block.toolUseId, block);
  }
  return results;
}

/**
 * A card's status: the stored result's outcome once there is one; the live status while the turn
 * runs; `cancelled` for a call a finished turn never ran (stopped, or the host was killed).
 */
export function cardStatus(
  result: ToolResultBlock | undefined,
  live: ChatToolCall | undefined,
  turnRunning: boolean,
): Pick<ChatToolCall, 'progress'> & { status: CardStatus } {
  if (result) return { status: result.outcome };
  if (!turnRunning) return { status: 'cancelled' };
  if (live) return { status: live.status, ...(live.progress ? { progress: live.progress } : {}) };
  return { status: 'pending' };
}

/** Arguments as readable JSON. */
export function formatArgs(input: Record<string, unknown>): string {
  const text = JSON.stringify(input, null, 2);
  return text === '{}' ? '(no arguments)' : text;
}

/** How much of a long result text is rendered before "Show all". */
export const RESULT_PREVIEW_CHARS = 20_000;
