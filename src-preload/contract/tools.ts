import { z } from 'zod';
import { IdString, method } from './method';
import type { ContentFlag } from './content-flags';
import type { ToolCallTask } from './task-state';
import type { ToolCallIdentity } from './tool-call-origin';

/**
 * Tools: what each server offers, running them on the user's own click, and the results as people
 * read them. Model-initiated calls never enter through this contract: they go through the core's
 * consent broker in-process (see contract/consent.ts for the renderer's side of that).
 */

/** Any JSON value (what tool arguments, schemas and structured results are made of). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Who may call a tool (`_meta.ui.visibility`): the model, the server's app, or both (the default). */
export type ToolAudience = 'model' | 'app';

/** A tool's interactive view, as its `_meta.ui` declares it. */
export interface ToolAppInfo {
  /** The `ui://` resource holding the app. */
  resourceUri: string;
  visibility: ToolAudience[];
}

/** The server's own description of a tool's behaviour: hints only, never trusted, never granting anything. */
export interface ToolHints {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * Why a tool deserves a second look before it runs unasked: it says it may destroy or overwrite data
 * (`destructive`), it does not say it is read-only or non-destructive, which by the spec's defaults
 * means it may (`unmarked`), it says it changes data but only adds to it (`writes`), or it says it
 * reaches outside systems (`open-world`).
 */
export type RiskyHint = 'destructive' | 'unmarked' | 'writes' | 'open-world';

/** How each hint reads next to a tool's name (the Trust-all dialog and the host's refusal say the same). */
export const RISKY_HINT_WORDS: Record<RiskyHint, string> = {
  destructive: 'may destroy or overwrite data',
  unmarked: 'not marked read-only or non-destructive, so it may destroy data',
  writes: 'may change data',
  'open-world': 'reaches outside systems',
};

/**
 * The hints that make "trust all tools" worth confirming: every tool that can do damage. The spec's
 * defaults apply to what can change data (`readOnlyHint` false, `destructiveHint` true when absent), so
 * a tool without hints counts as possibly destructive; a read-only tool changes nothing. Reaching
 * outside systems counts only when said (`openWorldHint: true`): its default would flag every tool,
 * read-only ones included. Hints are the server's claims, never verified: reasons to ask, never to allow.
 */
export function riskyHintsOf(hints: ToolHints | undefined): RiskyHint[] {
  const risky: RiskyHint[] = [];
  if (hints?.readOnlyHint !== true) {
    if (hints?.destructiveHint === true) risky.push('destructive');
    else if (hints?.destructiveHint === false) risky.push('writes');
    else risky.push('unmarked');
  }
  if (hints?.openWorldHint === true) risky.push('open-world');
  return risky;
}

/** Where a model-initiated call of this tool stands today. */
export type ToolPolicyState =
  /** No standing decision: every call asks. */
  | 'ask'
  /** "Always allow", for this exact definition. */
  | 'allow'
  /** "Always deny". */
  | 'deny'
  /** Allowed because the user trusts every tool of the server (for the definitions seen then). */
  | 'trusted'
  /** A standing "allow" whose tool changed since: suspended, the next call asks and shows the change. */
  | 'suspended';

/** One tool of one server, as the Tools panel shows it. */
export interface ToolView {
  serverId: string;
  serverName: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** Hints from the server (untrusted). */
  annotations?: ToolHints;
  /** sha-256 of the canonical definition; standing decisions are pinned to it. */
  definitionHash: string;
  policy: ToolPolicyState;
  /** The tool's interactive view (MCP Apps), shown beside its result. */
  app?: ToolAppInfo;
  /** The tool runs as a task (`execution.taskSupport`, on a server that supports task-augmented calls). */
  runsAsTask?: boolean;
  /**
   * What the content scanner flagged in its title and description (the text still goes to the model,
   * unless Flagged content is Block: then the tool is not offered to the model).
   */
  flags?: ContentFlag[];
}

/** A slice shown where more exists: `shown` of `total` characters. */
export interface Truncation {
  shown: number;
  total: number;
}

/** One content block of a result, capped for display; the rest is fetched with `getToolResultPart`. */
export type ResultBlockView =
  | { type: 'text'; text: string; truncated?: Truncation }
  /** `data` is base64; absent when the media is too large to send with the preview (`bytes` says how large). */
  | { type: 'image' | 'audio'; mimeType: string; data?: string; bytes: number }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; truncated?: Truncation; blobBytes?: number }
  /** A block type this version does not know, shown as (capped) JSON. */
  | { type: 'other'; json: string; truncated?: Truncation };

/** How a call ended. */
export type ToolRunStatus =
  | 'ok'
  /** The tool ran and reported a failure (`isError`): the tool's own answer. */
  | 'tool_error'
  /** The call itself failed: not running, timeout, crash, invalid params, JSON-RPC error. */
  | 'protocol_error'
  | 'cancelled'
  /** Nobody allowed it (the user, a standing decision, a timeout, a withdrawn request). */
  | 'denied';

/** A finished call, ready to show: which server and tool, how it ended, and a capped preview. */
export interface ToolCallOutcome extends ToolCallIdentity {
  status: ToolRunStatus;
  /** For protocol errors, cancellations and denials: what happened, naming server and tool. */
  error?: { kind: string; message: string };
  blocks: ResultBlockView[];
  /** `structuredContent`, pretty-printed (capped); `validated` when the tool declares an output schema it matched. */
  structured?: { json: string; truncated?: Truncation; validated: boolean };
  startedAt: string;
  durationMs: number;
  /** Size of the whole result as received (characters of its JSON form). */
  resultBytes: number;
  /**
   * For a tool with an app (MCP Apps): the server's whole result, for the app to render — only when it
   * fits `MAX_APP_RESULT_CHARS` (the app then gets the content above).
   */
  appResult?: JsonObject;
}

/** Largest result (characters of its JSON) handed whole to a tool's app. */
export const MAX_APP_RESULT_CHARS = 512 * 1024;

/** A call in flight (after any consent), with its latest progress. */
export interface RunningToolCall extends ToolCallIdentity {
  startedAt: string;
  progress?: ToolRunProgress;
  /** The chat tool call this is (its card follows it). */
  chat?: ChatCallRef;
  /** When the call runs as a task: where the task stands. */
  task?: ToolCallTask;
  /** The arguments it runs with, when the user edited the model's in the consent dialog. */
  editedArgs?: Record<string, unknown>;
}

/**
 * Which chat tool call a call is: the conversation and Patchbay's id of the call (the tool_use
 * block's `id`, `pb_…`; the provider's own id is the block's `apiId` and never appears here).
 */
export interface ChatCallRef {
  conversationId: string;
  toolUseId: string;
}

export interface ToolRunProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A piece of a kept result: characters `offset`… of a text (or base64 data) that the preview cut. */
export interface ToolResultSlice {
  text: string;
  offset: number;
  total: number;
}

/** What the renderer needs at (re)connect; events keep it current. */
export interface ToolsSnapshot {
  running: RunningToolCall[];
}

const ToolName = z.string().min(1).max(500);
/** Tool arguments: a JSON object (validated against the tool's input schema in the core, with ajv). */
export const ToolArgsSchema = z.record(z.string().max(1000), z.unknown());

const ListToolsSchema = z.object({ serverId: IdString }).strict();
/**
 * The user's own run from the Tools panel: the click is the consent, audited as the user's.
 * Strict, so nothing can smuggle in another origin.
 */
export const RunToolSchema = z
  .object({
    serverId: IdString,
    tool: ToolName,
    args: ToolArgsSchema.default({}),
    /** Chosen by the renderer so it can follow progress and cancel before the result arrives. */
    callId: z.uuid().optional(),
  })
  .strict();
const CallIdSchema = z.object({ callId: IdString }).strict();
const ResultPartSchema = z
  .object({
    callId: IdString,
    /** Index of the content block, or `structured` for the structured content. */
    part: z.union([z.number().int().min(0).max(100_000), z.literal('structured')]),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(1_000_000).default(100_000),
  })
  .strict();

export const toolMethods = {
  /** Every tool of a running server, with its standing decision. */
  listTools: method<typeof ListToolsSchema, ToolView[]>(ListToolsSchema),
  /** Runs a tool on the user's own click; arguments that fail the schema come back as field errors (`args.…`). */
  runTool: method<typeof RunToolSchema, ToolCallOutcome>(RunToolSchema),
  /** Cancels a running call (the server gets `notifications/cancelled`); the call ends as `cancelled`. */
  cancelToolCall: method<typeof CallIdSchema, void>(CallIdSchema),
  /** More of a result the preview cut short, while the core still keeps it (a bounded LRU). */
  getToolResultPart: method<typeof ResultPartSchema, ToolResultSlice>(ResultPartSchema),
};

/** Which call a tool-call event is about, and the chat tool call it is when it is one. */
export type ToolCallKey = Pick<RunningToolCall, 'callId' | 'chat'>;

/**
 * The one stream of tool-call events, for calls of every origin: the Tools panel follows its runs by
 * `callId`, a chat card its call by `chat.toolUseId`. A call goes waiting (only when it asks the
 * user) → started → progress / task (any number) → finished; a refused call only finishes.
 */
export interface ToolEvents {
  /** A server's tool list changed (list_changed, a restart): lists of its tools are stale. */
  toolsChanged: { serverId: string };
  /** The call waits for the user's answer (the consent dialog asks about it). */
  toolCallWaiting: ToolCallKey;
  toolCallStarted: RunningToolCall;
  toolCallProgress: ToolCallKey & ToolRunProgress;
  /** A call running as a task changed status (or message). */
  toolCallTask: ToolCallKey & { task: ToolCallTask };
  /**
   * Every call that was decided ends with this, refused ones included (the audit trail has news). A
   * chat call no server offers ends with it too, with the chat's id as `callId` (never audited).
   */
  toolCallFinished: ToolCallKey & Pick<ToolCallIdentity, 'serverId' | 'tool' | 'origin'> & { status: ToolRunStatus; durationMs: number };
}
