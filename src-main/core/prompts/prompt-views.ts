/**
 * Prompts as people see them: the list entries, and a fetched prompt's messages with every content
 * block capped for display (text, images, audio, embedded resources, resource links). Blocks are read
 * defensively: servers send what they like.
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import { base64Bytes, readBlock, type McpBlock, type PromptContentView, type PromptMessageView, type PromptView } from '@contract';
import { READ_CAPS } from '../resources/read-preview';
import { capText } from '../tools/result-preview';

export function toPromptView(serverId: string, serverName: string, prompt: Prompt): PromptView {
  return {
    serverId,
    serverName,
    name: prompt.name,
    ...(prompt.title ? { title: prompt.title } : {}),
    ...(prompt.description ? { description: prompt.description } : {}),
    arguments: (prompt.arguments ?? []).map((a) => ({
      name: a.name,
      // `title` arrived with BaseMetadata in 2025-06-18; the SDK's type does not list it for arguments.
      ...titleOf(a),
      ...(a.description ? { description: a.description } : {}),
      required: a.required === true,
    })),
  };
}

function titleOf(argument: object): { title?: string } {
  const title = (argument as { title?: unknown }).title;
  return typeof title === 'string' && title !== '' ? { title } : {};
}

/** Characters of text a content block carries (text, and an embedded text resource). */
export function blockChars(block: McpBlock): number {
  if (block.type === 'text') return block.text.length;
  if (block.type === 'resource') return block.text?.length ?? 0;
  return 0;
}

function contentView(block: McpBlock): PromptContentView {
  switch (block.type) {
    case 'text':
      return { type: 'text', ...capText(block.text, READ_CAPS.text) };
    case 'image':
    case 'audio': {
      const mimeType = block.mimeType ?? 'application/octet-stream';
      const inline =
        block.data.length <= READ_CAPS.media && (block.type === 'audio' || /^image\/(png|jpeg|gif|webp|bmp|avif)$/i.test(mimeType));
      return { type: block.type, mimeType, bytes: base64Bytes(block.data), ...(inline ? { data: block.data } : {}) };
    }
    case 'resource': {
      const { blob, text, ...rest } = block;
      return {
        ...rest,
        ...(text !== undefined ? capText(text, READ_CAPS.text) : {}),
        ...(blob !== undefined ? { blobBytes: base64Bytes(blob) } : {}),
      };
    }
    case 'resource_link':
      return block;
    case 'other':
      return { type: 'other', json: capText(JSON.stringify(block.raw) ?? 'null', 10_000).text };
  }
}

/** The messages of a fetched prompt, capped, and the characters of text in the whole result. */
export function previewPrompt(result: GetPromptResult): { messages: PromptMessageView[]; chars: number } {
  const messages: PromptMessageView[] = [];
  let chars = 0;
  for (const message of Array.isArray(result.messages) ? result.messages : []) {
    const block = readBlock(message.content);
    chars += blockChars(block);
    messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: contentView(block) });
  }
  return { messages, chars };
}
