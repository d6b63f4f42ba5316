/**
 * Our provider vocabulary (llm-types.ts) → an OpenAI Chat Completions request. The same stored
 * history maps here and to the Messages API, so a conversation can switch provider mid-way:
 * - tool_use blocks → the assistant message's `tool_calls` (arguments as a JSON string);
 * - tool_result blocks → `role: "tool"` messages right after that assistant message; images a tool
 *   returned follow in a user message (tool messages carry text only);
 * - images → `image_url` parts with data URLs;
 * - text-only user content → a plain string (what every compatible server accepts).
 */
import type OpenAI from 'openai';
import type { LlmContentBlock, LlmMessage, LlmRequest, LlmResultPart } from './llm-types';

type ChatMessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface ChatParamsOptions {
  /**
   * `max_completion_tokens` for OpenAI's own API (its newer models refuse `max_tokens`);
   * `max_tokens` for everything else (what local servers know).
   */
  tokenField: 'max_tokens' | 'max_completion_tokens';
  /** Ask for a final usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
}

/** OpenAI's API takes at most four stop sequences. */
const MAX_STOP_SEQUENCES = 4;

function imagePart(mediaType: string, data: string): UserPart {
  return { type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}` } };
}

function resultText(parts: LlmResultPart[]): string {
  return parts.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}: in the next message]`)).join('\n');
}

/** A user message (text, images, tool results) as `tool` messages and at most one user message. */
function userMessages(content: LlmContentBlock[]): ChatMessageParam[] {
  const messages: ChatMessageParam[] = [];
  const parts: UserPart[] = [];
  const toolImages: UserPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      const text = resultText(block.content) || '(no output)';
      messages.push({ role: 'tool', tool_call_id: block.toolUseId, content: block.isError ? `Error: ${text}` : text });
      for (const part of block.content) if (part.type === 'image') toolImages.push(imagePart(part.mediaType, part.data));
    } else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push(imagePart(block.mediaType, block.data));
  }
  if (toolImages.length > 0) parts.unshift({ type: 'text', text: 'Images returned by the tool calls above:' }, ...toolImages);
  if (parts.length === 0) return messages;
  const textOnly = parts.every((p) => p.type === 'text');
  const userContent = textOnly ? parts.map((p) => (p as { text: string }).text).join('\n\n') : parts;
  return [...messages, { role: 'user', content: userContent }];
}

function assistantMessage(content: LlmContentBlock[]): ChatMessageParam {
  const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
  const calls = content.flatMap((b) =>
    b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }] : [],
  );
  return { role: 'assistant', content: text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

/** The request's messages in Chat Completions form (system prompt first). */
export function toChatMessages(system: string | undefined, messages: readonly LlmMessage[]): ChatMessageParam[] {
  const out: ChatMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') out.push(...userMessages(message.content));
    else out.push(assistantMessage(message.content));
  }
  return out;
}

/** The streaming request body for a request. */
export function toChatParams(request: LlmRequest, options: ChatParamsOptions): OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming {
  const stop = request.stopSequences?.slice(0, MAX_STOP_SEQUENCES);
  return {
    model: request.model,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    ...(options.includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...(options.tokenField === 'max_completion_tokens' ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((t) => ({
            type: 'function' as const,
            function: {
              name: t.name,
              ...(t.description ? { description: t.description } : {}),
              parameters: { type: 'object', ...t.inputSchema },
            },
          })),
        }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(stop?.length ? { stop } : {}),
  };
}

/** Which token field an endpoint wants: OpenAI's own (and Azure OpenAI's) API the new one, others the old. */
export function tokenFieldFor(baseUrl: string): ChatParamsOptions['tokenField'] {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'api.openai.com' || host.endsWith('.openai.azure.com') ? 'max_completion_tokens' : 'max_tokens';
  } catch {
    return 'max_tokens';
  }
}
