import type { RunningToolCall } from '../../../src-preload/contract';
import type { StoreSlice } from './slice';

/** Tool calls in flight (any origin), with their latest progress; and a counter of finished calls. */
export interface ToolsState {
  runningToolCalls: Record<string, RunningToolCall>;
  /** Bumped whenever a call ends (or is refused): lists that show calls (the audit trail) refetch. */
  toolCallsFinished: number;
  /** Per server, bumped whenever its tool list changed: the Tools panel refetches. */
  toolsRevision: Record<string, number>;
}

export const toolsSlice: StoreSlice<ToolsState> = {
  initial: { runningToolCalls: {}, toolCallsFinished: 0, toolsRevision: {} },
  // Partial test snapshots may have no tools section: keep what we have.
  fromSnapshot: (snapshot) =>
    snapshot.tools ? { runningToolCalls: Object.fromEntries(snapshot.tools.running.map((call) => [call.callId, call])) } : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'toolCallStarted':
        return { runningToolCalls: { ...state.runningToolCalls, [event.payload.callId]: event.payload } };
      case 'toolCallProgress': {
        const call = state.runningToolCalls[event.payload.callId];
        if (!call) return undefined;
        const { callId: _id, ...progress } = event.payload;
        return { runningToolCalls: { ...state.runningToolCalls, [call.callId]: { ...call, progress } } };
      }
      case 'toolCallTask': {
        const call = state.runningToolCalls[event.payload.callId];
        if (!call) return undefined;
        return { runningToolCalls: { ...state.runningToolCalls, [call.callId]: { ...call, task: event.payload.task } } };
      }
      case 'toolCallFinished': {
        const { [event.payload.callId]: _done, ...rest } = state.runningToolCalls;
        return { runningToolCalls: rest, toolCallsFinished: state.toolCallsFinished + 1 };
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
