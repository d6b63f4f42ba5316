/**
 * MCP content blocks (tool results, prompt messages, embedded resources) in one place: one tolerant
 * reading of a block as a server sent it — servers send what they like — for every view made of it
 * (the Tools panel's capped preview, the chat's stored result and what the model gets, prompts), the
 * chat's stored part and back to MCP (for a tool's app), and the words that give a link to the model.
 */
import type { ToolResultPart } from './messages';
import { base64Bytes } from './sizes';

/** What a resource link names (`resource_link`). */
export interface ResourceLinkFields {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A content block, read: every field checked; `other` is a block this version does not know (or a malformed one). */
export type McpBlock =
  | { type: 'text'; text: string }
  /** `data` is base64; `mimeType` as sent (absent when the server gave none). */
  | { type: 'image' | 'audio'; data: string; mimeType?: string }
  | ({ type: 'resource_link' } & ResourceLinkFields)
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { type: 'other'; raw: unknown };

type Fields = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
/** `{ [key]: value }` for a non-empty string, else nothing (optional fields stay absent, never ''). */
const some = <K extends string>(key: K, value: unknown): { [P in K]?: string } =>
  (typeof value === 'string' && value !== '' ? { [key]: value } : {}) as { [P in K]?: string };

/** Reads one content block as a server sent it. */
export function readBlock(block: unknown): McpBlock {
  const fields = isFields(block) ? block : {};
  switch (fields.type) {
    case 'text':
      return { type: 'text', text: str(fields.text) ?? '' };
    case 'image':
    case 'audio':
      return { type: fields.type, data: str(fields.data) ?? '', ...some('mimeType', fields.mimeType) };
    case 'resource_link': {
      const uri = str(fields.uri) ?? '';
      return {
        type: 'resource_link',
        uri,
        name: str(fields.name) ?? uri,
        ...some('title', fields.title),
        ...some('description', fields.description),
        ...some('mimeType', fields.mimeType),
      };
    }
    case 'resource': {
      if (!isFields(fields.resource)) break;
      const resource = fields.resource;
      const text = str(resource.text);
      const blob = str(resource.blob);
      return {
        type: 'resource',
        uri: str(resource.uri) ?? '',
        ...some('mimeType', resource.mimeType),
        ...(text !== undefined ? { text } : {}),
        ...(blob !== undefined ? { blob } : {}),
      };
    }
  }
  return { type: 'other', raw: block };
}

/** A link as the model reads it: "Resource link: name (title) — uri". */
export function resourceLinkText(link: Pick<ResourceLinkFields, 'uri' | 'name' | 'title'>): string {
  return `Resource link: ${link.name}${link.title ? ` (${link.title})` : ''} — ${link.uri}`;
}

/** A block as the chat stores it for the user (whole; audio, which no view of a chat plays, described). */
export function toResultPart(block: McpBlock): ToolResultPart {
  switch (block.type) {
    case 'text':
      return block;
    case 'image':
      return { type: 'image', mediaType: block.mimeType ?? '', data: block.data };
    case 'audio':
      return { type: 'text', text: `[Audio (${block.mimeType ?? 'unknown type'}) — not something the model can hear]` };
    case 'resource_link':
      return block;
    case 'resource': {
      const { blob, ...rest } = block;
      return { ...rest, ...(blob !== undefined ? { blobBytes: base64Bytes(blob) } : {}) };
    }
    case 'other':
      return { type: 'text', text: `[${String(isFields(block.raw) ? block.raw.type : typeof block.raw)} content]` };
  }
}

/** A stored part back as the MCP content block a tool's app expects (a binary resource keeps only what was stored). */
export function toMcpBlock(part: ToolResultPart): Fields {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mediaType };
    case 'resource_link':
      return { ...part };
    case 'resource':
      return {
        type: 'resource',
        resource: {
          uri: part.uri,
          ...(part.mimeType ? { mimeType: part.mimeType } : {}),
          ...(part.text !== undefined ? { text: part.text } : {}),
        },
      };
  }
}
