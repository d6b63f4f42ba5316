/** The one error shape that crosses every boundary (IPC, WebSocket, renderer). */
export interface HostError {
  code: HostErrorCode;
  message: string;
  data?: unknown;
}

export type HostErrorCode =
  | 'bad_request' // the frame itself is not a call (not JSON, wrong shape)
  | 'unknown_method'
  | 'invalid_input' // zod rejected the input; `data` lists the issues
  | 'payload_too_large'
  | 'forbidden'
  | 'storage' // SQLite refused or failed
  | 'internal';

/** The result of one call: either a value or the one error shape. Never a thrown exception. */
export type CallResult<T = unknown> = { ok: true; value: T } | { ok: false; error: HostError };
