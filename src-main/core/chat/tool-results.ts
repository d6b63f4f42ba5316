/**
 * Tool results: MCP content as the user sees it (everything, kept whole), and as the model gets it
 * (text cut past a size limit, with a note saying so).
 */
import {
  readBlock,
  resourceLinkText,
  TOOL_OUTCOME,
  toResultPart,
  type ToolResultBlock,
  type ToolOutcome,
  type ToolResultPart,
} from '@contract';
import type { LlmResultPart } from '../llm/llm-types';
import type { CallAnswer } from './chat-toolbox';
import { toolApp } from '../tool-definition/tool-ui';
import { audienceOf, flaggedNote, resultMarker, withheldNote } from './data-marking';

/** Largest structured content (characters of JSON) kept with a result for the tool's app. */
const MAX_STORED_STRUCTURED_CHARS = 256 * 1024;

/** Images larger than this (base64 characters) are described instead of sent to the model. */
export const MAX_MODEL_IMAGE_CHARS = 5 * 1024 * 1024;

/** A stored part as the model reads it: links and embedded resources become text (binary ones described). */
function asModelPart(part: ToolResultPart): { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string } {
  switch (part.type) {
    case 'text':
    case 'image':
      return part;
    case 'resource_link':
      return { type: 'text', text: resourceLinkText(part) };
    case 'resource': {
      if (typeof part.text === 'string') return { type: 'text', text: `Resource ${part.uri}:\n${part.text}` };
      const size = part.blobBytes !== undefined ? ` (${part.blobBytes} bytes)` : '';
      return { type: 'text', text: `[Binary resource ${part.uri}${part.mimeType ? `, ${part.mimeType}` : ''}${size}]` };
    }
  }
}

/** The stored tool_result block for how a call ended (the server's result, or the router's words for why not). */
export function toResultBlock(
  toolUseId: string,
  done: CallAnswer,
  modelLimitChars: number,
  source?: ToolResultBlock['source'],
): ToolResultBlock {
  const { result } = done;
  // A tool with an app (MCP Apps): its card shows the app, which renders the structured content.
  const app = done.definition ? toolApp(done.definition) : undefined;
  const structured =
    app &&
    result.structuredContent &&
    typeof result.structuredContent === 'object' &&
    JSON.stringify(result.structuredContent).length <= MAX_STORED_STRUCTURED_CHARS
      ? { structuredContent: result.structuredContent as Record<string, unknown> }
      : {};
  const content = (result.content ?? []).map((block) => toResultPart(readBlock(block)));
  const { userOnly, assistantOnly } = audienceOf(result.content ?? []);
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
    ...(source ? { source } : {}),
    ...(userOnly.length > 0 ? { userOnly } : {}),
    ...(assistantOnly.length > 0 ? { assistantOnly } : {}),
    ...(done.editedArgs ? { editedArgs: done.editedArgs } : {}),
    ...(app && (done.status === 'ok' || done.status === 'tool_error') ? { app: { resourceUri: app.resourceUri }, ...structured } : {}),
  };
}

/** What the model is told first when the user changed its arguments: that they did, and to what. */
export function editedArgsNote(args: Record<string, unknown>): string {
  return `[The user changed the arguments before running this tool. It ran with: ${JSON.stringify(args)}]`;
}

/** The parts of a stored result the model may read (those for the user only left out). */
function modelContent(block: Pick<ToolResultBlock, 'content' | 'userOnly'>): ToolResultPart[] {
  if (!block.userOnly?.length) return block.content;
  const hidden = new Set(block.userOnly);
  return block.content.filter((_, index) => !hidden.has(index));
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
  const content = modelContent(block);
  const total = textLength(content);
  let budget = limit;
  const parts: LlmResultPart[] = block.source ? [{ type: 'text', text: resultMarker(block.source) }] : [];
  if (block.editedArgs) parts.push({ type: 'text', text: editedArgsNote(block.editedArgs) });
  if (block.flags?.length && block.flagDecision === 'withheld') return [...parts, { type: 'text', text: withheldNote(block.flags) }];
  if (block.flags?.length) parts.push({ type: 'text', text: flaggedNote(block.flags) });
  const before = parts.length;
  for (const stored of content) {
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
  if (parts.length === before) {
    const empty = block.userOnly?.length ? '(the result is for the user only)' : block.isError ? '(error without details)' : '(no content)';
    parts.push({ type: 'text', text: empty });
  }
  return parts;
}

/** A result for a call that never ran (stopped turn, round cap, failure part-way; an unknown tool is an `error`). */
export function notRunBlock(toolUseId: string, why: string, outcome: ToolOutcome = 'cancelled'): ToolResultBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text: why }], isError: true, outcome };
}
