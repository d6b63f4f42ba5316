/**
 * Chat Completions stream chunks → our stream events and one final message. A chunk's delta may
 * carry text, and pieces of tool calls keyed by `index`: the first piece of a call has its id and
 * name, later ones only argument text, and the pieces of parallel calls may interleave. Blocks are
 * numbered in the order they first appear (text, then each call); they are closed when the stream
 * ends, since a chunk never says a call is complete. Usage comes in a last chunk without choices
 * (when asked for with `stream_options.include_usage`), or on the last choice chunk (some servers).
 */
import crypto from 'node:crypto';
import type OpenAI from 'openai';
import { LlmError } from './llm-errors';
import type { LlmContentBlock, LlmResponse, LlmStreamEvent, LlmToolUse } from './llm-types';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type ToolCallPiece = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall;

/** A streamed tool call being assembled: its id and name, and its JSON arguments so far. */
interface OpenCall extends Pick<LlmToolUse, 'id' | 'name'> {
  /** Our block index. */
  index: number;
  args: string;
}

/** Our stop reasons (the Messages API's words, which the chat loop reads). */
function stopReasonOf(finishReason: string | null, hasCalls: boolean): string | null {
  switch (finishReason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    // Some servers (older Ollama) say "stop" after tool calls: the calls decide.
    case 'stop':
      return hasCalls ? 'tool_use' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return finishReason ?? (hasCalls ? 'tool_use' : null);
  }
}

/** A call's streamed arguments as an object; nothing at all means no arguments. */
function parseArguments(call: OpenCall): Record<string, unknown> {
  if (call.args.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(call.args);
  } catch {
    throw new LlmError(
      'server',
      `The model sent unreadable arguments for the tool call ${call.name || call.id} (not JSON). Retry to try again.`,
    );
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

export class ChunkAssembler {
  private started = false;
  private id = '';
  private model = '';
  private text: { index: number; text: string } | undefined;
  /** By the stream's tool-call index. */
  private readonly calls = new Map<number, OpenCall>();
  private nextIndex = 0;
  private finishReason: string | null = null;
  private sawFinish = false;
  private usage = { inputTokens: 0, outputTokens: 0 };

  /** Whether a choice finished (a stream that ends without one was cut off). */
  get complete(): boolean {
    return this.sawFinish;
  }

  accept(chunk: Chunk): LlmStreamEvent[] {
    const events: LlmStreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      this.id = chunk.id ?? '';
      this.model = chunk.model ?? '';
      events.push({ type: 'message-start', id: this.id, model: this.model });
    }
    if (chunk.usage) {
      this.usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
    }
    // One choice is asked for (n = 1); a server that sends more is read for the first.
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return events;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      if (!this.text) {
        this.text = { index: this.nextIndex++, text: '' };
        events.push({ type: 'block-start', index: this.text.index, kind: 'text' });
      }
      this.text.text += delta.content;
      events.push({ type: 'text-delta', index: this.text.index, text: delta.content });
    }
    for (const piece of delta.tool_calls ?? []) events.push(...this.acceptCall(piece));
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.sawFinish = true;
    }
    return events;
  }

  private acceptCall(piece: ToolCallPiece): LlmStreamEvent[] {
    const key = piece.index ?? 0;
    let call = this.calls.get(key);
    const events: LlmStreamEvent[] = [];
    if (!call) {
      // Some servers send no id: make one (it only pairs the call with its result).
      call = { index: this.nextIndex++, id: piece.id || `call_${crypto.randomBytes(9).toString('base64url')}`, name: '', args: '' };
      this.calls.set(key, call);
      call.name = piece.function?.name ?? '';
      events.push({ type: 'block-start', index: call.index, kind: 'tool_use', toolUse: { id: call.id, name: call.name } });
    } else {
      const name = piece.function?.name;
      // A name streamed in pieces is joined; a server that repeats the whole name each time is not doubled.
      if (name && name !== call.name) call.name += name;
    }
    const args = piece.function?.arguments;
    if (args) {
      call.args += args;
      events.push({ type: 'input-delta', index: call.index, partialJson: args });
    }
    return events;
  }

  /** Closes every block (text first, then the calls in order) and reports the whole message. */
  finish(): LlmStreamEvent[] {
    const events: LlmStreamEvent[] = [];
    const blocks: [number, LlmContentBlock][] = [];
    if (this.text) {
      const block: LlmContentBlock = { type: 'text', text: this.text.text };
      blocks.push([this.text.index, block]);
      events.push({ type: 'block-stop', index: this.text.index, block });
    }
    for (const call of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      const block: LlmContentBlock = { type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call) };
      blocks.push([call.index, block]);
      events.push({ type: 'block-stop', index: call.index, block });
    }
    events.push({ type: 'message-stop', response: this.response(blocks) });
    return events;
  }

  private response(blocks: [number, LlmContentBlock][]): LlmResponse {
    const content = blocks.sort(([a], [b]) => a - b).map(([, block]) => block);
    return {
      id: this.id,
      model: this.model,
      content,
      stopReason: stopReasonOf(this.finishReason, this.calls.size > 0),
      usage: { ...this.usage },
    };
  }
}
