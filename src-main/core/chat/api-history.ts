/**
 * Stored history → the messages of a model request. The stored history is what the user saw; the
 * API is stricter, so this repairs without changing what is stored:
 * - an interrupted answer that a retry replaced (or that ends the history) is left out;
 * - empty text and empty messages are left out;
 * - calls are paired by Patchbay's ids, then sent with the provider's own (`apiId`);
 * - every tool_use gets a tool_result in the next user message (a missing one says it did not run);
 *   a tool_result without its tool_use is left out;
 * - consecutive messages of one role are merged, tool results first in a user message;
 * - when no tools are offered, tool blocks become text (the API refuses tool blocks without tools);
 * - the request never ends with an answer (that would be a prefill);
 * - an attached (or prompt-embedded) resource becomes its text with its URI and name, an image block
 *   after a line naming it, or a description for other binary content;
 * - what came from a server is introduced by a line naming it and saying it is data (data-marking.ts).
 */
import type { ChatBlock, ChatMessage } from '@contract';
import type { LlmContentBlock, LlmMessage } from '../llm/llm-types';
import { toModelParts } from './tool-results';
import { flaggedNote, promptMarker, resourceMarker } from './data-marking';

export interface HistoryOptions {
  /** Whether the request offers tools (if not, tool blocks are sent as text). */
  offerTools: boolean;
}

const NOT_RUN = 'Not run: the turn ended before this call ran.';

function hasText(block: ChatBlock): boolean {
  return block.type !== 'text' || block.text.trim() !== '';
}

/** Drops interrupted answers that were superseded (followed by another answer, or last). */
function withoutSuperseded(messages: readonly ChatMessage[]): ChatMessage[] {
  const kept: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === 'assistant' && message.status !== 'complete') {
      const next = messages[i + 1];
      if (!next || next.role === 'assistant') continue;
    }
    kept.push(message);
  }
  return kept;
}

type ResourceBlock = Extract<ChatBlock, { type: 'resource' }>;

/** The line that introduces an attached resource to the model: its name, URI and type. */
export function resourceHeading(block: Pick<ResourceBlock, 'name' | 'uri' | 'mimeType' | 'origin'>): string {
  const what =
    block.origin === 'prompt' ? 'Resource from the prompt' : block.origin === 'app' ? "Context from a tool's app" : 'Attached resource';
  return `[${what} "${block.name}" <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}]`;
}

function resourceBlocks(block: ResourceBlock): LlmContentBlock[] {
  const flagged = block.flags?.length ? `\n${flaggedNote(block.flags, 'this resource')}` : '';
  const heading = `${resourceHeading(block)}\n${resourceMarker(block.serverName)}${flagged}`;
  if (block.image)
    return [
      { type: 'text', text: heading },
      { type: 'image', mediaType: block.image.mediaType, data: block.image.data },
    ];
  if (typeof block.text === 'string') return [{ type: 'text', text: `${heading}\n${block.text}` }];
  return [{ type: 'text', text: `${heading}\n${block.note ?? 'Binary content, not included.'}` }];
}

function toLlmBlocks(block: ChatBlock): LlmContentBlock[] {
  switch (block.type) {
    case 'text':
    case 'image':
      return [block];
    case 'tool_use':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
    case 'tool_result':
      return [{ type: 'tool_result', toolUseId: block.toolUseId, content: toModelParts(block), isError: block.isError }];
    case 'resource':
      return resourceBlocks(block);
    case 'prompt': {
      const marker = promptMarker(block);
      const flagged = block.flags?.length ? `\n${flaggedNote(block.flags, "this prompt's messages")}` : '';
      return marker ? [{ type: 'text', text: `${marker}${flagged}` }] : [];
    }
  }
}

/** Tool blocks as plain text, for requests without tools. */
function asText(block: LlmContentBlock, names: Map<string, string>): LlmContentBlock {
  if (block.type === 'tool_use') {
    names.set(block.id, block.name);
    return { type: 'text', text: `[Called the tool ${block.name} with ${JSON.stringify(block.input)}]` };
  }
  if (block.type === 'tool_result') {
    const text = block.content.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`)).join('\n');
    return { type: 'text', text: `[${block.isError ? 'Error from' : 'Result of'} ${names.get(block.toolUseId) ?? 'a tool'}: ${text}]` };
  }
  return block;
}

/** Builds the request's messages from stored history. See the module comment. */
export function toLlmMessages(history: readonly ChatMessage[], options: HistoryOptions): LlmMessage[] {
  const messages = withoutSuperseded(history)
    .map((m) => ({ role: m.role, content: m.content.filter(hasText).flatMap(toLlmBlocks) }))
    .filter((m) => m.content.length > 0);
  // A history cut to its newest part may start with an answer: start at a user message.
  while (messages.length > 0 && messages[0].role !== 'user') messages.shift();

  // Pair tool calls with results.
  const paired: LlmMessage[] = [];
  let pending: string[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const results = new Set(message.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])));
      const missing = pending.filter((id) => !results.has(id)).map((id) => notRun(id));
      const content = [...missing, ...message.content.filter((b) => b.type !== 'tool_result' || pending.includes(b.toolUseId))];
      pending = [];
      if (content.length > 0) paired.push({ role: 'user', content });
    } else {
      if (pending.length > 0) paired.push({ role: 'user', content: pending.map(notRun) });
      pending = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
      paired.push(message);
    }
  }
  if (pending.length > 0) paired.push({ role: 'user', content: pending.map(notRun) });

  // Merge runs of one role; tool results lead a user message.
  const merged: LlmMessage[] = [];
  for (const message of paired) {
    const last = merged[merged.length - 1];
    if (last && last.role === message.role) last.content = [...last.content, ...message.content];
    else merged.push({ role: message.role, content: [...message.content] });
  }
  for (const message of merged) {
    if (message.role === 'user') message.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }

  // Start with a user message that answers no call (dropping an opening answer orphans its results).
  while (merged.length > 0 && (merged[0].role !== 'user' || merged[0].content.every((b) => b.type === 'tool_result'))) {
    merged.shift();
    if (merged[0]?.role === 'user') merged[0].content = merged[0].content.filter((b) => b.type !== 'tool_result');
    if (merged[0]?.content.length === 0) merged.shift();
  }
  while (merged.length > 0 && merged[merged.length - 1].role !== 'user') merged.pop();
  if (options.offerTools) return withProviderIds(merged, history);
  const names = new Map<string, string>();
  return merged.map((m) => ({ role: m.role, content: m.content.map((b) => asText(b, names)) }));
}

function notRun(toolUseId: string): LlmContentBlock {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text: NOT_RUN }], isError: true };
}

/** Each call and its result under the provider's id for the call (stored calls are keyed by Patchbay's). */
function withProviderIds(messages: LlmMessage[], history: readonly ChatMessage[]): LlmMessage[] {
  const apiIds = new Map<string, string>();
  for (const message of history)
    for (const block of message.content) if (block.type === 'tool_use' && block.apiId) apiIds.set(block.id, block.apiId);
  if (apiIds.size === 0) return messages;
  const apiId = (id: string) => apiIds.get(id) ?? id;
  return messages.map((m) => ({
    role: m.role,
    content: m.content.map((b) =>
      b.type === 'tool_use' ? { ...b, id: apiId(b.id) } : b.type === 'tool_result' ? { ...b, toolUseId: apiId(b.toolUseId) } : b,
    ),
  }));
}
