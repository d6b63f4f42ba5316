import type { HostApi, UploadPurpose } from '@contract';

/** Bytes as base64, in slices (a spread of a whole chunk would overflow the call stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** A slice of a file as bytes (FileReader: every browser has it, and so does the test DOM). */
function readBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * Sends a file the user picked or dropped to the host in chunks (one call carries at most 1 MB), and
 * resolves with the upload's id. `onProgress` gets the fraction sent. A failed chunk cancels the upload.
 */
export async function uploadFile(
  api: Pick<HostApi, 'beginUpload' | 'uploadChunk' | 'cancelUpload'>,
  purpose: UploadPurpose,
  file: Blob & { name: string },
  onProgress?: (fraction: number) => void,
): Promise<string> {
  const { uploadId, chunkBytes } = await api.beginUpload({ purpose, fileName: file.name, size: file.size });
  try {
    for (let offset = 0; offset < file.size; offset += chunkBytes) {
      const bytes = await readBytes(file.slice(offset, offset + chunkBytes));
      await api.uploadChunk({ uploadId, offset, data: toBase64(bytes) });
      onProgress?.(Math.min(1, (offset + bytes.length) / file.size));
    }
  } catch (error) {
    void api.cancelUpload({ uploadId }).catch(() => undefined);
    throw error;
  }
  return uploadId;
}
