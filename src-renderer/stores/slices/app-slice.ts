import type { OpenRequest, UpdateState, WindowRecovery } from '@contract';
import type { StoreSlice } from './slice';

/** The app itself: what the OS asked it to open, the updater, a window crash to tell about. */
export interface AppShellState {
  openRequests: OpenRequest[];
  update: UpdateState | null;
  windowRecovery: WindowRecovery | null;
}

export const appSlice: StoreSlice<AppShellState> = {
  initial: { openRequests: [], update: null, windowRecovery: null },
  fromSnapshot: (snapshot) => ({ ...snapshot.app }),
  apply: (state, event) => {
    switch (event.name) {
      case 'openRequestReceived':
        // A reconnect can replay what the snapshot already had: one notice per request.
        return state.openRequests.some((r) => r.id === event.payload.id)
          ? undefined
          : { openRequests: [...state.openRequests, event.payload] };
      case 'openRequestDismissed':
        return { openRequests: state.openRequests.filter((r) => r.id !== event.payload.id) };
      case 'updateStateChanged':
        return { update: event.payload };
      case 'windowRecoveryChanged':
        return { windowRecovery: event.payload };
      default:
        return undefined;
    }
  },
};
