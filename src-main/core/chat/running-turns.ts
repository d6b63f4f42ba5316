/**
 * The turns running now, one at most per conversation: written by the turns (chat-turns.ts), read by
 * the conversations (conversations.ts: whether one runs, its answer as streamed so far, stopping it
 * before a conversation is removed). Its own module so neither of the two needs the other for this.
 */
import type { ChatMessage } from '@contract';
import type { AnswerRecorder } from './answer-recorder';

export interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
  recorder?: AnswerRecorder;
}

export class RunningTurns {
  private readonly turns = new Map<string, RunningTurn>();

  has(conversationId: string): boolean {
    return this.turns.has(conversationId);
  }

  /** The answer being streamed in the conversation, with its content so far. */
  live(conversationId: string): ChatMessage | undefined {
    return this.turns.get(conversationId)?.recorder?.live();
  }

  add(conversationId: string, turn: RunningTurn): void {
    this.turns.set(conversationId, turn);
  }

  delete(conversationId: string): void {
    this.turns.delete(conversationId);
  }

  /** Aborts the turn (stream and tool calls) and resolves once it has wound down. */
  async stop(conversationId: string): Promise<void> {
    const turn = this.turns.get(conversationId);
    if (!turn) return;
    turn.controller.abort(new Error('Stopped by the user'));
    await turn.done;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.turns.keys()].map((id) => this.stop(id)));
  }
}
