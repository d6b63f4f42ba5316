import type { HostInfo, Settings } from '@contract';
import type { StoreSlice } from './slice';

/** The host's own facts and the user's settings. */
export interface HostState {
  info: HostInfo | null;
  settings: Settings | null;
}

export const hostSlice: StoreSlice<HostState> = {
  initial: { info: null, settings: null },
  fromSnapshot: (snapshot) => ({ info: snapshot.info, settings: snapshot.settings }),
  apply: (_state, event) => (event.name === 'settingsChanged' ? { settings: event.payload } : undefined),
};
