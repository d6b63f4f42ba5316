/**
 * A resource read for people: every content item of the answer, text capped (the first 100,000
 * characters), binary described by its size, small raster images and audio inline (as base64 the
 * renderer shows from a data: URL). The rest of any item is read in slices (`readSlice`), which also
 * serves downloads, so no answer to the renderer grows past the transports' frame limits. Items are
 * read defensively: servers send what they like.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { base64Bytes, type ResourceContentView, type ResourceSlice } from '@contract';
import { capText, PREVIEW_CAPS } from '../tools/result-preview';

/** Preview limits: characters of text, base64 characters of inline media, items per read. */
export const READ_CAPS = { text: PREVIEW_CAPS.text, media: 512 * 1024, items: 500 };

/**
 * MIME types shown inline: raster images (never SVG: it can carry script, and is shown as text) and
 * audio the browser can play. Everything else binary is offered as a download.
 */
const INLINE_MEDIA = /^(image\/(png|jpeg|gif|webp|bmp|avif|x-icon|vnd\.microsoft\.icon)|audio\/[\w.+-]+)$/i;

export interface ReadPreview {
  contents: ResourceContentView[];
  /** Characters of text plus base64 characters in the whole answer. */
  size: number;
  /** Something was cut or left out: keep the whole answer so the rest can be fetched. */
  cut: boolean;
}

type Item = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function itemsOf(result: ReadResourceResult): Item[] {
  return Array.isArray(result.contents) ? (result.contents as unknown[]).filter((c): c is Item => typeof c === 'object' && c !== null) : [];
}

/** The preview of a read. `fallbackUri` names items a server sent without their own URI. */
export function previewRead(result: ReadResourceResult, fallbackUri: string, caps = READ_CAPS): ReadPreview {
  const items = itemsOf(result);
  const contents: ResourceContentView[] = [];
  let size = 0;
  let cut = items.length > caps.items;
  for (const [index, item] of items.entries()) {
    const text = str(item.text);
    const blob = str(item.blob);
    size += (text?.length ?? 0) + (blob?.length ?? 0);
    if (index >= caps.items) continue;
    const uri = str(item.uri) ?? fallbackUri;
    const mimeType = str(item.mimeType);
    if (text !== undefined || blob === undefined) {
      const capped = capText(text ?? '', caps.text);
      cut ||= capped.truncated !== undefined;
      contents.push({ kind: 'text', uri, ...(mimeType ? { mimeType } : {}), ...capped });
      continue;
    }
    const inline = mimeType !== undefined && INLINE_MEDIA.test(mimeType) && blob.length <= caps.media;
    cut ||= !inline;
    contents.push({ kind: 'blob', uri, ...(mimeType ? { mimeType } : {}), bytes: base64Bytes(blob), ...(inline ? { data: blob } : {}) });
  }
  return { contents, size, cut };
}

/** Characters `offset … offset+limit` of item `index`'s text or base64 data; undefined when there is no such item. */
export function readSlice(result: ReadResourceResult, index: number, offset: number, limit: number): ResourceSlice | undefined {
  const item = itemsOf(result)[index];
  if (!item) return undefined;
  const source = str(item.text) ?? str(item.blob) ?? '';
  const start = Math.min(offset, source.length);
  return { text: source.slice(start, start + limit), offset: start, total: source.length };
}
