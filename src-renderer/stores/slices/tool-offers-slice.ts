import type { ToolOffersSnapshot } from '@contract';
import type { StoreSlice } from './slice';

/** The user's per-tool choices and tool sets, as the host keeps them (a mirror: the host decides). */
export interface ToolOffersState {
  toolOffers: ToolOffersSnapshot;
}

export const toolOffersSlice: StoreSlice<ToolOffersState> = {
  initial: { toolOffers: { tools: [], offerNew: {}, sets: [] } },
  // Partial test snapshots may have no toolOffers section: keep what we have.
  fromSnapshot: (snapshot) => (snapshot.toolOffers ? { toolOffers: snapshot.toolOffers } : {}),
  apply: (_state, event) => (event.name === 'toolOffersChanged' ? { toolOffers: event.payload } : undefined),
};
