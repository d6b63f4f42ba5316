import type { RulesView } from '@contract';
import type { StoreSlice } from './slice';

/** The user's rules, the organisation's policy and what is wrong with its file (Settings › Rules, the banner). */
export interface RulesState {
  /** Null until the snapshot came. */
  rules: RulesView | null;
}

export const rulesSlice: StoreSlice<RulesState> = {
  initial: { rules: null },
  fromSnapshot: (snapshot) => (snapshot.rules ? { rules: snapshot.rules } : {}),
  apply: (_state, event) => (event.name === 'rulesChanged' ? { rules: event.payload } : undefined),
};
