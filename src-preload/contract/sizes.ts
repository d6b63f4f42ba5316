/** Sizes: how large data is, and the one way the app writes a size for people (main and renderer alike). */

/** Between a size's number and its unit: a size never wraps across two lines ("9.6 KB", not "9.6 / KB"). */
const NBSP = '\u00a0';

/**
 * "812 B", "1.5 KB", "16 MB", "10.5 MB", "10 GB": every size a person reads, limits in messages included
 * (characters count as bytes where a size is of text: close enough to read).
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}${NBSP}B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  // Up a unit while the number would read 1024 or more once rounded ("1 MB", never "1024.0 KB").
  while (value >= 1023.95 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)}${NBSP}${units[unit]}`;
}

/** Decoded size of base64 text (padding aware). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
