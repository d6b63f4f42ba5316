import { z } from 'zod';
import { IdString, method } from './method';

/**
 * Files the user picks in the window (an `.mcpb` bundle, a backup) reach the host in chunks: one call
 * carries at most `MAX_CALL_BYTES`, and web mode has no other way in that keeps the token and Origin
 * checks. The host writes the chunks to a temporary file in its data directory, refuses anything over
 * the size declared for the upload's purpose, and deletes the file when it is used, cancelled or
 * forgotten (after `UPLOAD_IDLE_MS` without a chunk).
 */

export const UPLOAD_PURPOSES = ['bundle', 'backup'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** Bytes per chunk: base64 makes them a third larger, which keeps each call well under the 1 MB limit. */
export const UPLOAD_CHUNK_BYTES = 512 * 1024;
/** Largest file per purpose. */
export const MAX_UPLOAD_BYTES: Record<UploadPurpose, number> = { bundle: 200 * 1024 * 1024, backup: 2 * 1024 * 1024 * 1024 };
/** An upload nobody added to for this long is deleted. */
export const UPLOAD_IDLE_MS = 10 * 60_000;

const BeginUploadSchema = z.object({
  purpose: z.enum(UPLOAD_PURPOSES),
  fileName: z.string().trim().min(1).max(255),
  size: z.number().int().min(1),
});
const UploadChunkSchema = z.object({
  uploadId: IdString,
  /** Where this chunk starts; chunks arrive in order. */
  offset: z.number().int().min(0),
  /** The chunk, base64. */
  data: z
    .string()
    .max(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 expected'),
});
const UploadIdSchema = z.object({ uploadId: IdString });

export const uploadMethods = {
  /** Starts an upload; refused (payload_too_large) when `size` is over the purpose's limit. */
  beginUpload: method<typeof BeginUploadSchema, { uploadId: string; chunkBytes: number }>(BeginUploadSchema),
  /** Appends one chunk at `offset`; resolves with the bytes received so far. */
  uploadChunk: method<typeof UploadChunkSchema, { received: number }>(UploadChunkSchema),
  /** Drops an upload and its file. */
  cancelUpload: method<typeof UploadIdSchema, void>(UploadIdSchema),
};
