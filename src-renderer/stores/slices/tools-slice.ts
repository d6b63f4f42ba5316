import { TOOL_OUTCOME, type ChatCallRef, type RunningToolCall, type ToolCallStatus } from '@contract';
import type { StoreSlice } from './slice';

/**
 * A chat tool call as its card follows it live: the one record the card reads (the stored result wins
 * once there is one). The running call's own fields (`callId` is what Cancel names), with where it stands.
 */
export type ChatToolCall = Pick<RunningToolCall, 'callId' | 'progress' | 'task' | 'editedArgs'> & { status: ToolCallStatus };

/** Tool calls in flight (any origin), with their latest progress; chat calls by their chat id; and a counter of finished calls. */
export interface ToolsState {
  runningToolCalls: Record<string, RunningToolCall>;
  /** Chat tool calls of this session (and those running at a (re)connect), by Patchbay's id of the call (`pb_…`). */
  chatToolCalls: Record<string, ChatToolCall>;
  /** Bumped whenever a call ends (or is refused): lists that show calls (the audit trail) refetch. */
  toolCallsFinished: number;
  /** Per server, bumped whenever its tool list changed: the Tools panel refetches. */
  toolsRevision: Record<string, number>;
}

export const toolsSlice: StoreSlice<ToolsState> = {
  initial: { runningToolCalls: {}, chatToolCalls: {}, toolCallsFinished: 0, toolsRevision: {} },
  // Partial test snapshots may have no tools section: keep what we have. A reload finds its chat calls
  // among the running ones (the host still runs them).
  fromSnapshot: (snapshot) =>
    snapshot.tools
      ? {
          runningToolCalls: Object.fromEntries(snapshot.tools.running.map((call) => [call.callId, call])),
          chatToolCalls: Object.fromEntries(
            snapshot.tools.running.flatMap((call) => (call.chat ? [[call.chat.toolUseId, chatRecord(call)]] : [])),
          ),
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'toolCallWaiting':
        return withChatCall(state, event.payload.chat, () => ({ callId: event.payload.callId, status: 'waiting-approval' }));
      case 'toolCallStarted': {
        const call = event.payload;
        return {
          runningToolCalls: { ...state.runningToolCalls, [call.callId]: call },
          ...withChatCall(state, call.chat, () => chatRecord(call)),
        };
      }
      case 'toolCallProgress': {
        const { callId, chat, ...progress } = event.payload;
        const call = state.runningToolCalls[callId];
        return changes(
          call && { runningToolCalls: { ...state.runningToolCalls, [callId]: { ...call, progress } } },
          withChatCall(state, chat, (before) => before && { ...before, progress }),
        );
      }
      case 'toolCallTask': {
        const { callId, chat, task } = event.payload;
        const call = state.runningToolCalls[callId];
        return changes(
          call && { runningToolCalls: { ...state.runningToolCalls, [callId]: { ...call, task } } },
          withChatCall(state, chat, (before) => before && { ...before, task }),
        );
      }
      case 'toolCallFinished': {
        const { callId, chat, status } = event.payload;
        const { [callId]: _done, ...rest } = state.runningToolCalls;
        return {
          runningToolCalls: rest,
          toolCallsFinished: state.toolCallsFinished + 1,
          // The outcome keeps what the card showed of the run (edited arguments, task), not its progress.
          ...withChatCall(state, chat, (before) => {
            const { progress: _p, ...kept } = before ?? { callId };
            return { ...kept, status: TOOL_OUTCOME[status] };
          }),
        };
      }
      case 'toolsChanged': {
        const id = event.payload.serverId;
        return { toolsRevision: { ...state.toolsRevision, [id]: (state.toolsRevision[id] ?? 0) + 1 } };
      }
      default:
        return undefined;
    }
  },
};

/** Both changes, or undefined when neither is one (the store then keeps its state as it is). */
function changes(a: Partial<ToolsState> | undefined, b: Partial<ToolsState> | undefined): Partial<ToolsState> | undefined {
  return a || b ? { ...a, ...b } : undefined;
}

/** A running call as its chat card shows it. */
function chatRecord(call: RunningToolCall): ChatToolCall {
  return {
    callId: call.callId,
    status: 'running',
    ...(call.progress ? { progress: call.progress } : {}),
    ...(call.task ? { task: call.task } : {}),
    ...(call.editedArgs ? { editedArgs: call.editedArgs } : {}),
  };
}

/** The chat record of an event's call changed (nothing when the call is not a chat's, or `next` gives nothing). */
function withChatCall(
  state: ToolsState,
  chat: ChatCallRef | undefined,
  next: (before: ChatToolCall | undefined) => ChatToolCall | undefined,
): Pick<ToolsState, 'chatToolCalls'> | undefined {
  if (!chat) return undefined;
  const record = next(state.chatToolCalls[chat.toolUseId]);
  return record ? { chatToolCalls: { ...state.chatToolCalls, [chat.toolUseId]: record } } : undefined;
}
