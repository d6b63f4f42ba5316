/**
 * What OpenAI-compatible endpoints really answer when something is wrong, as `LlmError`s that name
 * the provider and say what to do. Bodies differ by server (OpenAI's `{error: {message, type, code}}`,
 * Ollama's and vLLM's variants, plain text), so the message text is read as well as the status.
 */
import OpenAI from 'openai';
import { describeCause, findCode, isLoopbackUrl, LlmError, saysContextTooLong } from './llm-errors';

/** Who failed, for the message. */
export interface FailureContext {
  /** The provider's name ("Ollama"). */
  name: string;
  /** Its base URL. */
  baseUrl: string;
  /** The model asked for, when there was one. */
  model?: string;
}

/**
 * "does not support tools" (Ollama), "tools param requires --jinja" (llama.cpp), "auto tool choice
 * requires --enable-auto-tool-choice" (vLLM), "tool use is not supported", "Tools are not supported"…
 */
const NO_TOOLS =
  /(does not|doesn't) support (tools|tool|function)|tools? (use |calling |calls )?(is |are )?not supported|not support(ed)? (for )?(tools|tool calling|function calling)|tools param requires|tool choice requires|enable-auto-tool-choice/i;

/** Whether an endpoint's error message says the model cannot take tools. */
export function saysNoToolSupport(message: string): boolean {
  return NO_TOOLS.test(message);
}

const NO_MODEL = /model.*(not found|does not exist|not exist|unknown|no such|not available)|(unknown|invalid|no such) model/i;

/** The endpoint's own words (its error body's message, else the SDK's message without the status). */
function apiMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | string | undefined;
  if (body && typeof body === 'object' && typeof body.message === 'string') return body.message;
  if (typeof body === 'string') return body;
  return error.message.replace(/^\d{3}\s+/, '');
}

/** Seconds to wait from `retry-after` (seconds or a date) or `retry-after-ms`. */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000);
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds > 0) return Math.ceil(seconds);
  const at = Date.parse(value);
  return Number.isFinite(at) && at > now ? Math.ceil((at - now) / 1000) : undefined;
}

function httpFailure(error: InstanceType<typeof OpenAI.APIError>, ctx: FailureContext): LlmError {
  const { name } = ctx;
  const message = apiMessage(error);
  const code = typeof error.code === 'string' ? error.code : undefined;
  const detail = message ? ` (${message})` : '';
  const status = error.status;
  const options = { cause: error, status };
  const model = ctx.model ? `"${ctx.model}"` : 'this model';
  if (status === 401) return new LlmError('auth', `${name} rejected the API key: check it in Settings › Providers${detail}.`, options);
  if (status === 403) return new LlmError('auth', `${name} does not let this API key use ${model}${detail}.`, options);
  if (status === 429) {
    const after = retryAfterSeconds(error.headers);
    if (code === 'insufficient_quota') {
      return new LlmError(
        'rate-limit',
        `Your ${name} account has no quota left: check its plan and billing, then Retry${detail}.`,
        options,
      );
    }
    const wait = after ? `Retry in ${after} s` : 'Wait a moment, then Retry';
    return new LlmError('rate-limit', `Rate limited by ${name}: too many requests or tokens right now. ${wait}${detail}.`, {
      ...options,
      retryAfterSeconds: after,
    });
  }
  if ((status === 400 || status === 422 || status === 404 || status === undefined) && saysNoToolSupport(message)) {
    return new LlmError(
      'tools-unsupported',
      `${ctx.model ?? 'The model'} on ${name} cannot use tools${detail}. Continue without tools, or pick a model that supports them.`,
      options,
    );
  }
  if (code === 'context_length_exceeded' || status === 413 || saysContextTooLong(message)) {
    return new LlmError(
      'context-too-long',
      `This conversation is too long for ${model} on ${name}. Start a new conversation, pick a model with a larger context, or lower Max tokens in Settings${detail}.`,
      options,
    );
  }
  if (code === 'model_not_found' || ((status === 404 || status === 400) && NO_MODEL.test(message))) {
    return new LlmError(
      'bad-request',
      `${name} has no model ${model}: pick another in the Model menu, or Refresh models in Settings › Providers${detail}.`,
      options,
    );
  }
  if (status === 404) {
    return new LlmError('bad-request', `Not found at ${ctx.baseUrl}: check ${name}'s base URL in Settings › Providers${detail}.`, options);
  }
  if (status === 503 || status === 529)
    return new LlmError('overloaded', `${name} is overloaded right now. Retry in a little while${detail}.`, options);
  if (status !== undefined && status >= 400 && status < 500) {
    return new LlmError('bad-request', `${name} refused the request (HTTP ${status})${detail}.`, options);
  }
  return new LlmError(
    'server',
    `${name} failed (${status ? `HTTP ${status}` : 'an error in its answer'})${detail}. Retry in a little while.`,
    options,
  );
}

/** Any error from the `openai` SDK (or the stream under it) as an `LlmError`. */
export function toOpenAiError(error: unknown, ctx: FailureContext, signal?: AbortSignal): LlmError {
  if (error instanceof LlmError) return error;
  const { name, baseUrl } = ctx;
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) return new LlmError('cancelled', 'Stopped.', { cause: error });
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmError('network', `${name} at ${baseUrl} did not answer in time. Check that it is running, then Retry.`, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const code = findCode(error);
    if (code === 'ECONNREFUSED' && isLoopbackUrl(baseUrl)) {
      return new LlmError('network', `${name} at ${baseUrl} is not running (connection refused). Start it, then Retry.`, { cause: error });
    }
    const why = code ? ` (${code})` : '';
    return new LlmError(
      'network',
      `Can't reach ${name} at ${baseUrl}${why}. Check your connection and its base URL in Settings › Providers, then Retry.`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof OpenAI.APIError) return httpFailure(error, ctx);
  // Errors from reading the body mid-stream (connection reset, "terminated") are network failures.
  return new LlmError('network', `The connection to ${name} broke off mid-answer${describeCause(error)}. Retry to try again.`, {
    cause: error,
  });
}
