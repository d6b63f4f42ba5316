import type { ChatErrorKind } from '@contract';
/**
 * Provider failures as kinds a user can act on. Each provider maps its own errors here; the chat
 * shows `message` as is, with Retry when `retryable`.
 */

/** The chat's error kinds a provider can produce (the chat adds its own), plus a cancelled request. */
export type LlmErrorKind = Exclude<ChatErrorKind, 'round-cap' | 'too-many-tools' | 'internal'> | 'cancelled';

/** A provider request failed; `message` is meant for the user. */
export class LlmError extends Error {
  override readonly name = 'LlmError';

  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    options?: ErrorOptions & { status?: number; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.status = options?.status;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  /** The HTTP status, when there was a response. */
  readonly status: number | undefined;
  /** From a `retry-after` header, when the API sent one. */
  readonly retryAfterSeconds: number | undefined;

  /** Every kind but `cancelled` may succeed when tried again (after the user fixed what the message says). */
  get retryable(): boolean {
    return this.kind !== 'cancelled';
  }
}

/** The message for a request made without a key. */
export const NO_API_KEY_MESSAGE = 'No Anthropic API key is set. Add one in Settings → API key, then press Retry.';

/** The message for a request to another provider that needs a key and has none. */
export function noApiKeyMessage(providerName: string): string {
  return `No API key is set for ${providerName}. Add one in Settings › Providers, then press Retry.`;
}

/**
 * A failure's words for where models are listed: the button there is "Refresh models", not Retry
 * ("Start it, then Retry." → "Start it, then press Refresh models.").
 */
export function forModelListing(message: string): string {
  return message.replace(/\b(?:press )?Retry\b/g, 'press Refresh models');
}

/** The host part of a base URL, for messages ("can't reach 127.0.0.1:9"). */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Whether a URL points at this computer (127.x, localhost, ::1). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

/** The first `code` (ECONNREFUSED, ENOTFOUND…) along the cause chain. */
export function findCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+/.test(code)) return code;
  }
  return undefined;
}

/** ` (ECONNRESET)` or ` (the error's message)`, for "broke off mid-answer" messages. */
export function describeCause(error: unknown): string {
  const code = findCode(error);
  return code ? ` (${code})` : error instanceof Error && error.message ? ` (${error.message})` : '';
}

const CONTEXT_TOO_LONG = /prompt is too long|context (window|length|limit)|too many (input )?tokens|exceeds? .*context|input length/i;

/** Whether a 400's message says the conversation does not fit the model's context window. */
export function saysContextTooLong(message: string): boolean {
  return CONTEXT_TOO_LONG.test(message);
}

/** Plain words for an HTTP failure of the Messages API, by status and the API's error type. */
export function describeHttpFailure(
  status: number | undefined,
  type: string | null | undefined,
  apiMessage: string | null | undefined,
  host: string,
): { kind: LlmErrorKind; message: string } {
  const detail = apiMessage ? ` (${apiMessage})` : '';
  if (status === 401 || type === 'authentication_error') {
    return { kind: 'auth', message: `API key rejected by ${host}: check the key in Settings → API key${detail}.` };
  }
  if (status === 403 || type === 'permission_error') {
    return { kind: 'auth', message: `This API key may not use this model or feature${detail}.` };
  }
  if (status === 429 || type === 'rate_limit_error') {
    return {
      kind: 'rate-limit',
      message: `Rate limited: too many requests or tokens for your account right now. Wait a moment, then Retry${detail}.`,
    };
  }
  if (status === 529 || type === 'overloaded_error') {
    return { kind: 'overloaded', message: `The model is overloaded right now. Retry in a little while${detail}.` };
  }
  if (status === 413 || type === 'request_too_large') {
    return {
      kind: 'context-too-long',
      message: `This conversation is too large to send. Start a new conversation, or turn off some servers' tools${detail}.`,
    };
  }
  if ((status === 400 || type === 'invalid_request_error') && apiMessage && saysContextTooLong(apiMessage)) {
    return {
      kind: 'context-too-long',
      message: `This conversation is too long for the model's context window. Start a new conversation, or lower Max tokens in Settings${detail}.`,
    };
  }
  if (status === 404 || type === 'not_found_error') {
    return { kind: 'bad-request', message: `Not found at ${host}: check the model name and the base URL in Settings${detail}.` };
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return { kind: 'bad-request', message: `The API refused the request (HTTP ${status})${detail}.` };
  }
  return {
    kind: 'server',
    message: `The API failed (${status ? `HTTP ${status}` : (type ?? 'error')})${detail}. Retry in a little while.`,
  };
}
