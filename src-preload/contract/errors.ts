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

/**
 * The one error class on both sides of every bridge. The core throws it on purpose (its code and
 * message reach the renderer as they are); the renderer's `HostApi` throws it when a call fails, so a
 * caller catches the same type whichever side it runs on.
 */
export class HostCallError extends Error implements HostError {
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'HostCallError';
  }

  /** The error as it crosses a transport. */
  toHostError(): HostError {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
  }

  static from(error: HostError): HostCallError {
    return new HostCallError(error.code, error.message, error.data);
  }
}
