/**
 * A tool call as the router takes it and reports it — the one vocabulary for a call, used by the
 * router, the Tools panel's handlers and the chat's agent loop alike (`tool`, `args`, `status`).
 * One record grows as the call goes, each stage the one before with its own fields added: what a
 * caller asks (`ToolCallRequest`), the call once the router has named it (`ToolCall`: the contract's
 * `ToolCallIdentity` and what was asked), and the call as it ended (`ToolCallDone`), whether it ran or
 * was refused. How a call goes on while it runs is not reported back to the caller: the router tells
 * everyone through the one stream of tool-call events (contract `ToolEvents`), with the chat
 * reference; those events and the running view carry `identityOf` the call, never the record itself.
 * The call and its ending are written out field by field in one place each (`namedCall`, `endedCall`),
 * so every call has one shape whoever asked for it and however it ended; smaller records grow with
 * `grown` (see there why not a spread).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { AuditDecider, ChatCallRef, ToolCallIdentity, ToolCallKey, ToolRunStatus } from '@contract';
import type { CallError } from './call-messages';

/** What the caller asks for: which tool of which server, with which arguments. */
export interface ToolCallRequest extends Pick<ToolCallIdentity, 'serverId' | 'tool' | 'origin'> {
  args: Record<string, unknown>;
  /** A fresh UUID when omitted. */
  callId?: string;
  /** Aborting withdraws a pending consent request, or cancels the running call. */
  signal?: AbortSignal;
  /** The chat tool call this is: every event of the call carries it, so its card can follow and cancel it. */
  chat?: ChatCallRef;
}

/** The call once the router has taken it: its identity (id and server name given), and what was asked. */
export interface ToolCall extends ToolCallIdentity, Pick<ToolCallRequest, 'args' | 'signal' | 'chat'> {
  requestedAt: Date;
}

/**
 * The call as it ended: the call (its `args` those it ran with) and how it ended, with what the model
 * gets (`result`: the server's, or a synthesized `isError`). Made by the router in one place, for a call
 * that ran and a refused one alike. It stays in the core process (it holds the caller's `signal`): the
 * renderer gets `toOutcome`'s `ToolCallOutcome`, the events their own picks.
 */
export interface ToolCallDone extends ToolCall {
  status: ToolRunStatus;
  result: CallToolResult;
  error?: CallError;
  decidedBy: AuditDecider;
  /** The definition the call was made against (absent when the tool was not found). */
  definition?: Tool;
  /** The arguments the call ran with, when the user changed the model's before allowing it (absent otherwise). */
  editedArgs?: Record<string, unknown>;
  startedAt: Date;
  durationMs: number;
}

/** Why a call never left (who refused it, and why): the ending of a refused call, before its result is made. */
export type Refusal = Pick<ToolCallDone, 'decidedBy' | 'status' | 'definition'> & Required<Pick<ToolCallDone, 'error'>>;

/** What a call ended with: `ToolCallDone`'s own fields (`error` and `editedArgs` when there are some). */
export type Ending = Omit<ToolCallDone, keyof ToolCall>;

/**
 * The request as the call the router takes: named, with its id, when it was asked and the arguments it
 * goes on with. Written out in one order, with `signal` and `chat` present (undefined when not given),
 * rather than grown from the request: callers write requests in their own key order, and a record of
 * many shapes makes every read of it downstream polymorphic (≈ 15 µs more host CPU a call when it was
 * grown, docs/benchmarks.md).
 */
export function namedCall(request: ToolCallRequest, named: Pick<ToolCall, 'callId' | 'serverName' | 'requestedAt' | 'args'>): ToolCall {
  return {
    callId: named.callId,
    serverId: request.serverId,
    serverName: named.serverName,
    tool: request.tool,
    origin: request.origin,
    args: named.args,
    signal: request.signal,
    chat: request.chat,
    requestedAt: named.requestedAt,
  };
}

/** The same call going on with other arguments (nulls dropped, the user's edit); itself when they are the same. */
export function withArgs(call: ToolCall, args: Record<string, unknown>): ToolCall {
  return args === call.args
    ? call
    : namedCall(call, { callId: call.callId, serverName: call.serverName, requestedAt: call.requestedAt, args });
}

/**
 * Every call ends here, whether it ran or was refused: the call with how it ended. One order and every
 * field present, for the reason `namedCall` gives. Typed with the ending given, so a refusal's `error`
 * stays required.
 */
export function endedCall<E extends Ending>(call: ToolCall, ending: E): ToolCallDone & Pick<E, 'error'> {
  return {
    callId: call.callId,
    serverId: call.serverId,
    serverName: call.serverName,
    tool: call.tool,
    origin: call.origin,
    args: call.args,
    signal: call.signal,
    chat: call.chat,
    requestedAt: call.requestedAt,
    status: ending.status,
    result: ending.result,
    error: ending.error,
    decidedBy: ending.decidedBy,
    definition: ending.definition,
    editedArgs: ending.editedArgs,
    startedAt: ending.startedAt,
    durationMs: ending.durationMs,
  };
}

/**
 * Which call it is, alone: what the records that leave the router (the running view, the audit rows)
 * carry of the call — never its arguments, signal or chat reference, which each adds as it needs.
 */
export function identityOf({ callId, serverId, serverName, tool, origin }: ToolCallIdentity): ToolCallIdentity {
  return { callId, serverId, serverName, tool, origin };
}

/**
 * `record` grown by `more`, as a new object: what `{ ...record, ...more }` says. Not written so because
 * Node 20's V8 builds an object literal that opens with a spread and goes on with more properties in its
 * runtime, not its inline caches: 0.5–5 µs each against ≈ 0.1 µs here. With the router's and the
 * recorder's records written that way a tool call cost 30–40 µs more host CPU (docs/benchmarks.md).
 */
export function grown<Base extends object, More extends object>(record: Base, more: More): Base & More {
  return Object.assign({}, record, more);
}

/** Which call an event is about: its id, and the chat tool call it is when it is one (its card follows it). */
export function keyOf({ callId, chat }: ToolCallKey): ToolCallKey {
  return chat ? { callId, chat } : { callId };
}
