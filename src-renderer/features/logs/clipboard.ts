import { writeClipboard } from '../../ui/CopyButton';

/** Puts text on the clipboard; resolves false when the browser refuses (no permission, no API). */
export const copyText = writeClipboard;

/** Saves text as a file through the browser's download (Electron shows its save dialog). */
export function downloadText(fileName: string, text: string, type = 'application/x-ndjson'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: the download has its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
