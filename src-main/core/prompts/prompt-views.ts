/**
 * Prompts as people see them: the list entries, and a fetched prompt's messages with every content
 * block capped for display (text, images, audio, embedded resources, resource links). Blocks are read
 * defensively: servers send what they like.
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import type { PromptContentView, PromptMessageView, PromptView } from '../../../src-preload/contract';
import { base64Bytes, READ_CAPS } from '../resources/read-preview';
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

type Block = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Characters of text a content block carries (text, and an embedded text resource). */
export function blockChars(block: Block): number {
  if (block.type === 'text') return str(block.text)?.length ?? 0;
  if (block.type === 'resource' && typeof block.resource === 'object' && block.resource !== null)
    return str((block.resource as Block).text)?.length ?? 0;
  return 0;
}

function contentView(block: Block): PromptContentView {
  switch (block.type) {
    case 'text':
      return { type: 'text', ...capText(str(block.text) ?? '', READ_CAPS.text) };
    case 'image':
    case 'audio': {
      const data = str(block.data) ?? '';
      const mimeType = str(block.mimeType) ?? 'application/octet-stream';
      const inline = data.length <= READ_CAPS.media && (block.type === 'audio' || /^image\/(png|jpeg|gif|webp|bmp|avif)$/i.test(mimeType));
      return { type: block.type, mimeType, bytes: base64Bytes(data), ...(inline ? { data } : {}) };
    }
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Block;
      const text = str(resource.text);
      const blob = str(resource.blob);
      return {
        type: 'resource',
        uri: str(resource.uri) ?? '',
        ...(str(resource.mimeType) ? { mimeType: str(resource.mimeType) } : {}),
        ...(text !== undefined ? capText(text, READ_CAPS.text) : {}),
        ...(blob !== undefined ? { blobBytes: base64Bytes(blob) } : {}),
      };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: str(block.uri) ?? '',
        name: str(block.name) ?? str(block.uri) ?? '',
        ...(str(block.title) ? { title: str(block.title) } : {}),
        ...(str(block.description) ? { description: str(block.description) } : {}),
        ...(str(block.mimeType) ? { mimeType: str(block.mimeType) } : {}),
      };
    default:
      return { type: 'other', json: capText(JSON.stringify(block) ?? 'null', 10_000).text };
  }
}

/** The messages of a fetched prompt, capped, and the characters of text in the whole result. */
export function previewPrompt(result: GetPromptResult): { messages: PromptMessageView[]; chars: number } {
  const messages: PromptMessageView[] = [];
  let chars = 0;
  for (const message of Array.isArray(result.messages) ? result.messages : []) {
    const block = (typeof message.content === 'object' && message.content !== null ? message.content : { type: 'other' }) as Block;
    chars += blockChars(block);
    messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: contentView(block) });
  }
  return { messages, chars };
}
