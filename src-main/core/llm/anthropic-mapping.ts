/**
 * Between our provider vocabulary (llm-types.ts) and the Anthropic Messages API: request params out,
 * raw stream events in (assembled into our events and one final message), SDK errors to `LlmError`.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { LlmContentBlock, LlmRequest, LlmResponse, LlmResultPart, LlmStreamEvent, LlmToolUse } from './llm-types';
import { describeCause, describeHttpFailure, findCode, hostOf, LlmError } from './llm-errors';

type ImageMediaType = Anthropic.Base64ImageSource['media_type'];
const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] satisfies ImageMediaType[];

function imageOrNote(mediaType: string, data: string): Anthropic.ImageBlockParam | Anthropic.TextBlockParam {
  if (IMAGE_TYPES.includes(mediaType)) return { type: 'image', source: { type: 'base64', media_type: mediaType as ImageMediaType, data } };
  return { type: 'text', text: `[An image of type ${mediaType} was left out: the API accepts JPEG, PNG, GIF and WebP only.]` };
}

function resultPart(part: LlmResultPart): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  return part.type === 'text' ? { type: 'text', text: part.text } : imageOrNote(part.mediaType, part.data);
}

/**
 * A tool call id the Messages API accepts (`^[a-zA-Z0-9_-]+$`): calls another provider made (after a
 * model switch) may carry other characters; the same id maps the same way in its call and its result.
 */
export function anthropicToolId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'call';
}

function toBlockParam(block: LlmContentBlock): Anthropic.ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return imageOrNote(block.mediaType, block.data);
    case 'tool_use':
      return { type: 'tool_use', id: anthropicToolId(block.id), name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: anthropicToolId(block.toolUseId),
        content: block.content.map(resultPart),
        is_error: block.isError,
      };
  }
}

/** The streaming request body for a request. */
export function toMessageParams(request: LlmRequest): Anthropic.MessageCreateParamsStreaming {
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content.map(toBlockParam) })),
    ...(request.system ? { system: request.system } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((t) => ({
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            input_schema: { type: 'object' as const, ...t.inputSchema },
          })),
        }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.stopSequences?.length ? { stop_sequences: request.stopSequences } : {}),
    stream: true,
  };
}

/** A streamed block being assembled: its text, or a tool call's id, name and JSON input so far. */
interface OpenBlock extends Pick<LlmToolUse, 'id' | 'name'> {
  kind: 'text' | 'tool_use' | 'other';
  text: string;
  json: string;
}

/** Parses a tool's streamed input; the API sends nothing at all for an empty input. */
function parseInput(json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

/** Turns raw stream events into our events, keeping what the final message needs. */
export class StreamAssembler {
  private readonly open = new Map<number, OpenBlock>();
  private readonly done = new Map<number, LlmContentBlock>();
  private id = '';
  private model = '';
  private stopReason: string | null = null;
  private usage = { inputTokens: 0, outputTokens: 0 };

  accept(event: Anthropic.RawMessageStreamEvent): LlmStreamEvent[] {
    switch (event.type) {
      case 'message_start':
        this.id = event.message.id;
        this.model = event.message.model;
        this.usage.inputTokens = event.message.usage?.input_tokens ?? 0;
        this.usage.outputTokens = event.message.usage?.output_tokens ?? 0;
        return [{ type: 'message-start', id: this.id, model: this.model }];
      case 'content_block_start': {
        const block = event.content_block;
        const kind = block.type === 'text' ? 'text' : block.type === 'tool_use' ? 'tool_use' : 'other';
        const open: OpenBlock = { kind, text: block.type === 'text' ? block.text : '', json: '', id: '', name: '' };
        if (block.type === 'tool_use') Object.assign(open, { id: block.id, name: block.name });
        this.open.set(event.index, open);
        const start: LlmStreamEvent = {
          type: 'block-start',
          index: event.index,
          kind,
          ...(kind === 'tool_use' ? { toolUse: { id: open.id, name: open.name } } : {}),
        };
        return open.text ? [start, { type: 'text-delta', index: event.index, text: open.text }] : [start];
      }
      case 'content_block_delta': {
        const open = this.open.get(event.index);
        if (!open) return [];
        if (event.delta.type === 'text_delta') {
          open.text += event.delta.text;
          return [{ type: 'text-delta', index: event.index, text: event.delta.text }];
        }
        if (event.delta.type === 'input_json_delta') {
          open.json += event.delta.partial_json;
          return [{ type: 'input-delta', index: event.index, partialJson: event.delta.partial_json }];
        }
        return [];
      }
      case 'content_block_stop': {
        const open = this.open.get(event.index);
        this.open.delete(event.index);
        if (!open) return [];
        let block: LlmContentBlock | null = null;
        if (open.kind === 'text') block = { type: 'text', text: open.text };
        if (open.kind === 'tool_use') {
          try {
            block = { type: 'tool_use', id: open.id, name: open.name, input: parseInput(open.json) };
          } catch {
            throw new LlmError('server', `The model sent unreadable input for the tool call ${open.name}.`);
          }
        }
        if (block) this.done.set(event.index, block);
        return [{ type: 'block-stop', index: event.index, block }];
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        if (event.usage?.output_tokens != null) this.usage.outputTokens = event.usage.output_tokens;
        if (event.usage?.input_tokens != null) this.usage.inputTokens = event.usage.input_tokens;
        return [];
      case 'message_stop':
        return [{ type: 'message-stop', response: this.response() }];
      default:
        return [];
    }
  }

  response(): LlmResponse {
    const content = [...this.done.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    return { id: this.id, model: this.model, content, stopReason: this.stopReason, usage: { ...this.usage } };
  }
}

/** Any error from the SDK (or the stream under it) as an `LlmError`. */
export function toLlmError(error: unknown, baseUrl: string, signal?: AbortSignal): LlmError {
  if (error instanceof LlmError) return error;
  const host = hostOf(baseUrl);
  if (signal?.aborted || error instanceof Anthropic.APIUserAbortError) return new LlmError('cancelled', 'Stopped.', { cause: error });
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return new LlmError('network', `${host} did not answer in time. Check your connection, then Retry.`, { cause: error });
  }
  if (error instanceof Anthropic.APIConnectionError) {
    const code = findCode(error);
    const why = code ? ` (${code})` : '';
    return new LlmError('network', `Can't reach ${host}${why}. Check your connection and the base URL in Settings, then Retry.`, {
      cause: error,
    });
  }
  if (error instanceof Anthropic.APIError) {
    const { kind, message } = describeHttpFailure(error.status, error.type, error.apiMessage, host);
    const retryAfter = Number(error.headers?.get('retry-after'));
    return new LlmError(kind, message, {
      cause: error,
      status: error.status,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    });
  }
  // Errors from reading the body mid-stream (connection reset, "terminated") are network failures.
  return new LlmError('network', `The connection to ${host} broke off mid-answer${describeCause(error)}. Retry to try again.`, {
    cause: error,
  });
}
