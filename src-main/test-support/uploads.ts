import fs from 'node:fs';
import path from 'node:path';
import type { HostApi, UploadPurpose } from '@contract';

/** Sends a file to the host in chunks, as the window does (`beginUpload`, `uploadChunk`…); resolves with the upload id. */
export async function uploadFile(api: HostApi, purpose: UploadPurpose, file: string): Promise<string> {
  const bytes = fs.readFileSync(file);
  const { uploadId, chunkBytes } = await api.beginUpload({ purpose, fileName: path.basename(file), size: bytes.length });
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    await api.uploadChunk({ uploadId, offset, data: bytes.subarray(offset, offset + chunkBytes).toString('base64') });
  }
  return uploadId;
}
