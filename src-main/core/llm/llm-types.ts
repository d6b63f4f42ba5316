/**
 * The provider seam's own vocabulary: requests, messages, streamed events and the final message.
 * Close to the Messages API (so Anthropic maps one to one) but owned here, so chat and sampling never
 * depend on one SDK's types and a test provider needs no SDK at all.
 */
import type { ModelList } from '@contract';
import { LlmError } from './llm-errors';

/** What a tool result may carry to the model. */
export type LlmResultPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string };

export type LlmContentBlock =
  | { type: 'text'; text: string }
  /** Base64 data; `mediaType` e.g. image/png. */
  | { type: 'image'; mediaType: string; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; toolUseId: string; content: LlmResultPart[]; isError: boolean };

/** A tool call as the provider seam carries it (the chat stores it as the contract's `ToolUseBlock`). */
export type LlmToolUse = Extract<LlmContentBlock, { type: 'tool_use' }>;

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: LlmContentBlock[];
}

/** A tool the model may call; `name` must match `^[a-zA-Z0-9_-]{1,64}$`. */
export interface LlmTool {
  name: string;
  description?: string;
  /** JSON Schema of the input (an object schema). */
  inputSchema: Record<string, unknown>;
}

export interface LlmRequest {
  model: string;
  maxTokens: number;
  /** Empty or absent: no system prompt. */
  system?: string;
  messages: LlmMessage[];
  tools?: LlmTool[];
  temperature?: number;
  stopSequences?: string[];
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

/** `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `refusal`, `pause_turn`… (kept open: APIs add reasons). */
export type LlmStopReason = string;

export interface LlmResponse {
  id: string;
  model: string;
  content: LlmContentBlock[];
  stopReason: LlmStopReason | null;
  usage: LlmUsage;
}

/**
 * Streamed events, in order: one `message-start`; per content block `block-start`, deltas and
 * `block-stop` (with the finished block, or null for a kind we do not keep, e.g. thinking); then one
 * `message-stop` carrying the whole message with its stop reason and usage.
 */
export type LlmStreamEvent =
  | { type: 'message-start'; id: string; model: string }
  | { type: 'block-start'; index: number; kind: 'text' | 'tool_use' | 'other'; toolUse?: Pick<LlmToolUse, 'id' | 'name'> }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'input-delta'; index: number; partialJson: string }
  | { type: 'block-stop'; index: number; block: LlmContentBlock | null }
  | { type: 'message-stop'; response: LlmResponse };

export interface LlmCallOptions {
  /** Aborting ends the request (and its stream) with an `LlmError` of kind `cancelled`. */
  signal?: AbortSignal;
}

/**
 * A model provider: used by the chat loop and by sampling. Failures are `LlmError`s (see
 * llm-errors.ts) with a kind and a message for the user.
 */
export interface LlmProvider {
  /** Streams one model message. Iterating drives the request; breaking out of the loop aborts it. */
  createMessage(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent>;
  /** The models the account can use, or a built-in list when the API cannot be asked. */
  listModels(options?: LlmCallOptions): Promise<ModelList>;
}

/** Runs a request to the end and returns the final message (for callers that do not show a stream). */
export async function completeMessage(provider: LlmProvider, request: LlmRequest, options?: LlmCallOptions): Promise<LlmResponse> {
  for await (const event of provider.createMessage(request, options)) {
    if (event.type === 'message-stop') return event.response;
  }
  throw new LlmError('network', 'The answer stopped before it was complete (the stream ended early).');
}

/** A model of a provider: what a conversation, the default setting and a sampling request choose. */
export interface ModelChoice {
  providerId: string;
  model: string;
}

/** Where a request goes: the provider to ask, and whether to offer the model tools. */
export interface ModelRoute extends ModelChoice {
  provider: LlmProvider;
  providerName: string;
  /** False for a model that refused tools (the user chose to go on without them). */
  offerTools: boolean;
  /** What the provider's API takes in tools (absent: no hard limit, a 200k-token context). */
  toolLimits?: ToolLimits;
}

/** One model of one provider, as choices list it (sampling's dialog, its preselection). */
export interface ProviderModel {
  providerId: string;
  providerName: string;
  id: string;
  displayName: string;
  /** The provider runs on this computer (a loopback endpoint). */
  local: boolean;
}

/** Resolves choices to providers (implemented by the provider registry; chat and sampling use it). */
export interface ModelRouter {
  /** The route for a choice; a missing or removed provider falls back to the default model. */
  route(choice?: Partial<ModelChoice>): ModelRoute;
  /** The default model (Settings), resolved to a provider that exists. */
  defaultChoice(): ModelChoice;
  /** The model refused tools: offer it none from now on (until the user resets it in Settings). */
  markWithoutTools(choice: ModelChoice): void;
}

/** What a provider's models can take in tools: the API's hard limit, and a context size to judge "too many" by. */
export interface ToolLimits {
  /** The most tools one request may carry (undefined: the API sets none). */
  maxTools?: number;
  /** An estimate of the models' context window, in tokens (the API does not say; used for tool search's 10% rule). */
  contextTokens: number;
}
