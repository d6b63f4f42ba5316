/**
 * Records one streamed answer: builds its content blocks from the provider's events, stores it
 * (the row is created with the first content, checkpointed about every second and at every tool-call
 * boundary, then finished), and reports changes to the renderer as batched deltas.
 */
import { randomUUID } from 'node:crypto';
import type { ChatBlock, ChatDeltaOp, ChatMessage, ChatToolRef, ToolUseBlock } from '@contract';
import type { LlmResponse, LlmStreamEvent } from '../llm/llm-types';
import type { MessageRepository } from './message-repository';

export interface RecorderOptions {
  messages: MessageRepository;
  conversationId: string;
  model: string;
  /** The provider writing the answer (stored with it). */
  providerId?: string;
  now(): Date;
  /** Server identity of an API tool name (undefined for a name that was never offered). */
  resolveTool(apiName: string): ChatToolRef | undefined;
  onMessage(message: ChatMessage): void;
  onDelta(messageId: number, ops: ChatDeltaOp[]): void;
  /** Checkpoint interval (ms). */
  checkpointMs?: number;
  /** Delta batching interval (ms). */
  batchMs?: number;
}

export class AnswerRecorder {
  private readonly content: ChatBlock[] = [];
  /** Stream block index → our content index (blocks we do not keep have none). */
  private readonly indexes = new Map<number, number>();
  private message: ChatMessage | undefined;
  private ops: ChatDeltaOp[] = [];
  private batchTimer: NodeJS.Timeout | undefined;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Text has reached the renderer (the first text delta is not batched). */
  private flushedText = false;

  constructor(private readonly options: RecorderOptions) {}

  /** The message id once the row exists. */
  get id(): number | undefined {
    return this.message?.id;
  }

  /** The answer as it stands (live content), for a history page asked for mid-stream. */
  live(): ChatMessage | undefined {
    return this.message ? { ...this.message, content: this.content.map((b) => ({ ...b })) } : undefined;
  }

  /** The finished tool calls so far. */
  toolUses(): ToolUseBlock[] {
    return this.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  }

  accept(event: LlmStreamEvent): void {
    if (this.closed) return;
    switch (event.type) {
      case 'block-start':
        if (event.kind === 'text') this.indexes.set(event.index, this.push({ type: 'text', text: '' }, false));
        return;
      case 'text-delta': {
        const at = this.indexes.get(event.index);
        const block = at === undefined ? undefined : this.content[at];
        if (!block || block.type !== 'text' || event.text === '') return;
        if (!this.message) {
          // The row is created carrying the first words: one event reaches the renderer at once (time to first token).
          block.text += event.text;
          this.ensureRow();
          this.flushedText = true;
        } else {
          this.queue({ op: 'text', index: at!, at: block.text.length, text: event.text });
          block.text += event.text;
          // The first words go out at once; later ones in batches.
          if (!this.flushedText) this.flush();
        }
        this.scheduleCheckpoint();
        return;
      }
      case 'block-stop':
        if (event.block?.type === 'tool_use') {
          const tool = this.options.resolveTool(event.block.name);
          const block: ChatBlock = {
            ...event.block,
            // Calls are told apart by an id of ours: a provider may reuse its own (`call_1` every time).
            id: newToolCallId(),
            apiId: event.block.id,
            serverId: tool?.serverId ?? '',
            serverName: tool?.serverName ?? '',
            toolName: tool?.toolName ?? event.block.name,
          };
          this.push(block, true);
          // A tool-call boundary: checkpoint now, so a kill during the call keeps the call.
          this.checkpointNow();
        }
        return;
      default:
        return;
    }
  }

  /** Writes the finished answer durably and reports it whole. Returns undefined when it had no content. */
  finish(response: LlmResponse): ChatMessage | undefined {
    return this.close('complete', response);
  }

  /** Keeps what was written so far, marked interrupted (never dropped). */
  interrupt(): ChatMessage | undefined {
    return this.close('interrupted');
  }

  private close(status: 'complete' | 'interrupted', response?: LlmResponse): ChatMessage | undefined {
    if (this.closed) return this.message;
    this.closed = true;
    clearTimeout(this.checkpointTimer);
    this.flush();
    const kept = this.content.filter((b) => b.type !== 'text' || b.text !== '');
    if (!this.message && kept.length === 0) return undefined;
    this.ensureRow();
    const usage = response ? { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens } : undefined;
    this.message = this.options.messages.finish(
      this.message!.id,
      { content: kept, status, stopReason: response?.stopReason, usage },
      this.options.now(),
    );
    this.options.onMessage(this.message);
    return this.message;
  }

  private push(block: ChatBlock, report: boolean): number {
    this.content.push(block);
    const index = this.content.length - 1;
    if (report) {
      // Creating the row reports every block so far, this one included.
      if (this.message) this.queue({ op: 'block', index, block: { ...block } });
      else this.ensureRow();
    }
    return index;
  }

  /**
   * Creates the row with the first content (so an answer stopped before any text leaves nothing
   * behind), carrying everything so far; later changes go out as deltas.
   */
  private ensureRow(): void {
    if (this.message) return;
    const { messages, conversationId, model, providerId } = this.options;
    const created = messages.append(
      { conversationId, role: 'assistant', content: this.content, status: 'streaming', model, ...(providerId ? { providerId } : {}) },
      this.options.now(),
      false,
    );
    this.message = created;
    this.options.onMessage(created);
  }

  private queue(op: ChatDeltaOp): void {
    this.ops.push(op);
    this.batchTimer ??= setTimeout(() => this.flush(), this.options.batchMs ?? 50);
  }

  private flush(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (!this.message || this.ops.length === 0) return;
    const ops = this.ops;
    this.ops = [];
    if (ops.some((op) => op.op === 'text')) this.flushedText = true;
    this.options.onDelta(this.message.id, ops);
  }

  private scheduleCheckpoint(): void {
    this.checkpointTimer ??= setTimeout(() => this.checkpointNow(), this.options.checkpointMs ?? 1000);
  }

  private checkpointNow(): void {
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    if (!this.message || this.closed) return;
    this.options.messages.checkpoint(this.message.id, this.content, this.options.now());
  }
}

/** A tool call id of Patchbay's own: unique, and in the characters every provider accepts (`^[a-zA-Z0-9_-]+$`). */
export function newToolCallId(): string {
  return `pb_${randomUUID().replaceAll('-', '')}`;
}
