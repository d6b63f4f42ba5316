/**
 * Results for people: a capped preview of a `CallToolResult` that stays small whatever the server
 * sent (the first ~100 KB of each text, media up to a sane size), plus `resultPart` to read the rest
 * of any cut piece on demand. Blocks are read defensively: servers send what they like.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { base64Bytes, readBlock, type ResultBlockView, type ToolResultSlice, type Truncation } from '@contract';
import { prettyJson } from '../tool-definition/canonical-json';

/** Preview limits, in characters (base64 characters for media). */
export interface PreviewCaps {
  text: number;
  media: number;
  structured: number;
  other: number;
  blocks: number;
}

export const PREVIEW_CAPS: PreviewCaps = { text: 100_000, media: 2_000_000, structured: 100_000, other: 10_000, blocks: 500 };

export interface ResultPreview {
  blocks: ResultBlockView[];
  structured?: { json: string; truncated?: Truncation; validated: boolean };
  /** Approximate size of the whole result (characters of text, base64 and JSON). */
  resultBytes: number;
  /** True when something was cut: keep the full result so the rest can be fetched. */
  cut: boolean;
}

/** The first `cap` characters of a text, saying how much there was when it was cut. */
export function capText(text: string, cap: number): { text: string; truncated?: Truncation } {
  return text.length <= cap ? { text } : { text: text.slice(0, cap), truncated: { shown: cap, total: text.length } };
}

/** One block's preview and its full size. */
function previewBlock(raw: unknown, caps: PreviewCaps): { view: ResultBlockView; size: number; cut: boolean } {
  const block = readBlock(raw);
  switch (block.type) {
    case 'text': {
      const view = { type: 'text' as const, ...capText(block.text, caps.text) };
      return { view, size: block.text.length, cut: view.truncated !== undefined };
    }
    case 'image':
    case 'audio': {
      const fits = block.data.length <= caps.media;
      const view: ResultBlockView = {
        type: block.type,
        mimeType: block.mimeType ?? 'application/octet-stream',
        bytes: base64Bytes(block.data),
        ...(fits ? { data: block.data } : {}),
      };
      return { view, size: block.data.length, cut: !fits };
    }
    case 'resource_link':
      return { view: block, size: JSON.stringify(raw).length, cut: false };
    case 'resource': {
      const { text, blob, ...rest } = block;
      const capped = text === undefined ? undefined : capText(text, caps.text);
      const view: ResultBlockView = { ...rest, ...capped, ...(blob !== undefined ? { blobBytes: base64Bytes(blob) } : {}) };
      return { view, size: (text?.length ?? 0) + (blob?.length ?? 0), cut: capped?.truncated !== undefined };
    }
    case 'other': {
      const json = JSON.stringify(raw) ?? 'null';
      const capped = capText(json, caps.other);
      return {
        view: { type: 'other', json: capped.text, ...(capped.truncated ? { truncated: capped.truncated } : {}) },
        size: json.length,
        cut: capped.truncated !== undefined,
      };
    }
  }
}

/** The capped preview of a result. `validated`: the tool declares an output schema (the SDK checked it). */
export function previewResult(result: CallToolResult, validated: boolean, caps: PreviewCaps = PREVIEW_CAPS): ResultPreview {
  const content: unknown[] = Array.isArray(result.content) ? result.content : [];
  const blocks: ResultBlockView[] = [];
  let resultBytes = 0;
  let cut = content.length > caps.blocks;
  for (const [index, block] of content.entries()) {
    if (index >= caps.blocks) {
      resultBytes += JSON.stringify(block)?.length ?? 0;
      continue;
    }
    const preview = previewBlock(block, caps);
    blocks.push(preview.view);
    resultBytes += preview.size;
    cut ||= preview.cut;
  }
  if (content.length > caps.blocks) {
    blocks.push({ type: 'text', text: `(${content.length - caps.blocks} more content blocks are not shown)` });
  }
  let structured: ResultPreview['structured'];
  if (result.structuredContent !== undefined) {
    const json = prettyJson(result.structuredContent);
    const capped = capText(json, caps.structured);
    structured = { json: capped.text, validated, ...(capped.truncated ? { truncated: capped.truncated } : {}) };
    resultBytes += json.length;
    cut ||= capped.truncated !== undefined;
  }
  return { blocks, ...(structured ? { structured } : {}), resultBytes, cut };
}

/** The full text behind one previewed piece: a block's text / base64 data / JSON, or the structured content. */
function sourceOf(result: CallToolResult, part: number | 'structured'): string | undefined {
  if (part === 'structured') return result.structuredContent === undefined ? undefined : prettyJson(result.structuredContent);
  const raw: unknown = Array.isArray(result.content) ? result.content[part] : undefined;
  if (raw === undefined) return undefined;
  const block = readBlock(raw);
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return block.data;
    case 'resource':
      return block.text ?? block.blob;
    default:
      return JSON.stringify(raw);
  }
}

/** Characters `offset … offset+limit` of a piece; undefined when the result has no such piece. */
export function resultPart(
  result: CallToolResult,
  part: number | 'structured',
  offset: number,
  limit: number,
): ToolResultSlice | undefined {
  const source = sourceOf(result, part);
  if (source === undefined) return undefined;
  const start = Math.min(offset, source.length);
  return { text: source.slice(start, start + limit), offset: start, total: source.length };
}
