/**
 * Between MCP sampling messages and the provider seam: what the dialog shows, what the model gets,
 * and the `CreateMessageResult` the server gets back.
 */
import type { CreateMessageRequestParamsBase, CreateMessageResult } from '@modelcontextprotocol/client';
import type { SamplingContentView, SamplingMessageView } from '@contract';
import type { LlmContentBlock, LlmMessage, LlmResponse } from '../llm/llm-types';

/** The messages as the dialog shows them (content may be one block or a list). */
export function toMessageViews(params: CreateMessageRequestParamsBase): SamplingMessageView[] {
  return params.messages.map((message) => {
    const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as { type: string; [k: string]: unknown }[];
    return { role: message.role, content: blocks.map(toContentView) };
  });
}

function toContentView(block: { type: string; [k: string]: unknown }): SamplingContentView {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String(block.text ?? '') };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: String(block.mimeType ?? ''), data: String(block.data ?? '') };
    default:
      return { type: 'other', summary: `${block.type} block (not sent to the model)` };
  }
}

/** The model's view of the (edited) messages. Audio is not supported by the provider: it says so in text. */
export function toLlmMessages(messages: readonly SamplingMessageView[]): LlmMessage[] {
  return messages.map((message) => ({
    role: message.role,
    content: message.content.flatMap((block): LlmContentBlock[] => {
      if (block.type === 'text') return [{ type: 'text', text: block.text }];
      if (block.type === 'image') return [{ type: 'image', mediaType: block.mimeType, data: block.data }];
      if (block.type === 'audio') return [{ type: 'text', text: `[audio (${block.mimeType}) omitted: the model cannot take audio]` }];
      return [];
    }),
  }));
}

/** The text of a model response (text blocks joined). */
export function responseText(response: LlmResponse): string {
  return response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

const STOP_REASONS: Record<string, string> = { end_turn: 'endTurn', max_tokens: 'maxTokens', stop_sequence: 'stopSequence' };

/** The result the server gets: the reviewed text, the model that made it, its stop reason. */
export function toCreateMessageResult(text: string, model: string, stopReason: string | null): CreateMessageResult {
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model,
    ...(stopReason ? { stopReason: STOP_REASONS[stopReason] ?? stopReason } : {}),
  };
}
