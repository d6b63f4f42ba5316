import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './app-store';

export const AppStoreContext = createContext<AppStore | null>(null);

/** Atomic selector hook over the app store given by the nearest provider. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(AppStoreContext);
  if (!store) throw new Error('useAppStore needs an AppStoreContext provider');
  return useStore(store, selector);
}
