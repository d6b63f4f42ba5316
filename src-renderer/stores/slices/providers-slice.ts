import type { ProviderView } from '@contract';
import type { StoreSlice } from './slice';

/** The configured model providers (never their keys: only whether one is set). */
export interface ProvidersState {
  /** In the order they were added (the Anthropic provider first). */
  providers: ProviderView[];
}

export const providersSlice: StoreSlice<ProvidersState> = {
  initial: { providers: [] },
  // Tolerates a snapshot without `providers` (a test's partial one).
  fromSnapshot: (snapshot) => (snapshot.providers ? { providers: snapshot.providers.providers } : {}),
  apply: (_state, event) => (event.name === 'providersChanged' ? { providers: event.payload } : undefined),
};
