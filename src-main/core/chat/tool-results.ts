/**
 * Tool results: MCP content as the user sees it (everything, kept whole), and as the model gets it
 * (text cut past a size limit, with a note saying so).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { TOOL_OUTCOME, type ChatBlock, type ToolOutcome, type ToolResultPart } from '../../../src-preload/contract';
import type { LlmResultPart } from '../llm/llm-types';
import type { ToolCallDone } from '../tools/tool-call';

type ToolResultBlock = Extract<ChatBlock, { type: 'tool_result' }>;
type McpContent = CallToolResult['content'][number];

/** Images larger than this (base64 characters) are described instead of sent to the model. */
export const MAX_MODEL_IMAGE_CHARS = 5 * 1024 * 1024;

function embedded(resource: { uri: string; mimeType?: string; text?: string; blob?: string }): ToolResultPart {
  return {
    type: 'resource',
    uri: resource.uri,
    ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
    ...(typeof resource.text === 'string' ? { text: resource.text } : {}),
    ...(typeof resource.blob === 'string' ? { blobBytes: Math.round((resource.blob.length * 3) / 4) } : {}),
  };
}

/** A stored part as the model reads it: links and embedded resources become text (binary ones described). */
function asModelPart(part: ToolResultPart): { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string } {
  switch (part.type) {
    case 'text':
    case 'image':
      return part;
    case 'resource_link':
      return { type: 'text', text: `Resource link: ${part.name}${part.title ? ` (${part.title})` : ''} — ${part.uri}` };
    case 'resource': {
      if (typeof part.text === 'string') return { type: 'text', text: `Resource ${part.uri}:\n${part.text}` };
      const size = part.blobBytes !== undefined ? ` (${part.blobBytes} bytes)` : '';
      return { type: 'text', text: `[Binary resource ${part.uri}${part.mimeType ? `, ${part.mimeType}` : ''}${size}]` };
    }
  }
}

function fromMcp(part: McpContent): ToolResultPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', mediaType: part.mimeType, data: part.data };
    case 'audio':
      return { type: 'text', text: `[Audio (${part.mimeType}) — not something the model can hear]` };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: part.uri,
        name: part.name,
        ...(part.title ? { title: part.title } : {}),
        ...(part.description ? { description: part.description } : {}),
        ...(part.mimeType ? { mimeType: part.mimeType } : {}),
      };
    case 'resource':
      return embedded(part.resource as { uri: string; mimeType?: string; text?: string; blob?: string });
    default:
      return { type: 'text', text: `[${(part as { type: string }).type} content]` };
  }
}

/** The stored tool_result block for how a call ended (the server's result, or the router's words for why not). */
export function toResultBlock(
  toolUseId: string,
  done: Pick<ToolCallDone, 'status' | 'result' | 'editedArgs'>,
  modelLimitChars: number,
): ToolResultBlock {
  const { result } = done;
  const content = (result.content ?? []).map(fromMcp);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) });
  }
  return {
    type: 'tool_result',
    toolUseId,
    content,
    isError: done.status !== 'ok',
    outcome: TOOL_OUTCOME[done.status],
    modelLimitChars,
    ...(done.editedArgs ? { editedArgs: done.editedArgs } : {}),
  };
}

/** What the model is told first when the user changed its arguments: that they did, and to what. */
export function editedArgsNote(args: Record<string, unknown>): string {
  return `[The user changed the arguments before running this tool. It ran with: ${JSON.stringify(args)}]`;
}

/** Total text characters of a result, as the model reads it. */
export function textLength(parts: readonly ToolResultPart[]): number {
  return parts.reduce((sum, part) => {
    const model = asModelPart(part);
    return sum + (model.type === 'text' ? model.text.length : 0);
  }, 0);
}

/**
 * What the model gets for a stored result: text up to the block's limit (the limit in force when the
 * call ran, so the history sent stays the same request after request), then a note; images as they
 * are unless huge. Never empty: the API wants something in a result.
 */
export function toModelParts(block: ToolResultBlock): LlmResultPart[] {
  const limit = block.modelLimitChars ?? Number.POSITIVE_INFINITY;
  const total = textLength(block.content);
  let budget = limit;
  const parts: LlmResultPart[] = block.editedArgs ? [{ type: 'text', text: editedArgsNote(block.editedArgs) }] : [];
  for (const stored of block.content) {
    const part = asModelPart(stored);
    if (part.type === 'image') {
      parts.push(
        part.data.length <= MAX_MODEL_IMAGE_CHARS
          ? part
          : { type: 'text', text: `[An image (${part.mediaType}) too large to send was left out.]` },
      );
      continue;
    }
    if (budget <= 0) continue;
    parts.push({ type: 'text', text: part.text.length <= budget ? part.text : part.text.slice(0, budget) });
    budget -= part.text.length;
  }
  if (total > limit) {
    parts.push({
      type: 'text',
      text: `[Result cut: it had ${total.toLocaleString('en-US')} characters of text; the first ${limit.toLocaleString('en-US')} are above. The user sees the whole result.]`,
    });
  }
  return parts.length > 0 ? parts : [{ type: 'text', text: block.isError ? '(error without details)' : '(no content)' }];
}

/** A result for a call that never ran (stopped turn, round cap, failure part-way; an unknown tool is an `error`). */
export function notRunBlock(toolUseId: string, why: string, outcome: ToolOutcome = 'cancelled'): ToolResultBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text: why }], isError: true, outcome };
}
