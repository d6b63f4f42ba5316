import { MAX_RESOURCE_SLICE, type ResourceSlice } from '@contract';

/** Fetches characters `offset…` of a content item (text, or base64 data). */
export type SliceLoader = (offset: number, limit: number) => Promise<ResourceSlice>;

export interface DownloadSource {
  /** What the user gets: a file name and its type. */
  fileName: string;
  mimeType: string;
  /** The item is binary: the slices are base64 and are decoded before saving. */
  base64: boolean;
  /** The whole item when the preview already holds it; else slices are fetched. */
  whole?: string;
  load: SliceLoader;
  onProgress?(fraction: number): void;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Saves a content item as a file. Large items come from the host a slice at a time (at most 512 KB of
 * base64 per call, aligned to whole base64 quads), so no single answer approaches the transports'
 * frame limits and the window stays responsive; the slices become one Blob the browser saves.
 */
export async function downloadContent(source: DownloadSource): Promise<void> {
  const parts: BlobPart[] = [];
  if (source.whole !== undefined) {
    parts.push(source.base64 ? decode(source.whole) : source.whole);
  } else {
    let offset = 0;
    for (let total = Infinity; offset < total;) {
      const slice = await source.load(offset, MAX_RESOURCE_SLICE);
      total = slice.total;
      if (slice.text.length === 0) break;
      parts.push(source.base64 ? decode(slice.text) : slice.text);
      offset += slice.text.length;
      source.onProgress?.(total === 0 ? 1 : offset / total);
    }
  }
  const url = URL.createObjectURL(new Blob(parts, { type: source.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = source.fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once click() returned; the URL is revoked a little later to be safe.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** A file name for a resource: the last segment of its URI, else its name. */
export function fileNameFor(uri: string, fallback: string): string {
  const last = decodeURIComponent(uri.split(/[?#]/)[0].split('/').filter(Boolean).at(-1) ?? '');
  const name = /^[\w.\- ]{1,120}$/.test(last) && !last.endsWith(':') ? last : fallback;
  return name.replace(/[^\w.\- ]/g, '_') || 'resource';
}
