import { createStore, type StoreApi } from 'zustand/vanilla';
import { createHostApi, type AppPage, type HostApi, type HostEvent, type HostSnapshot } from '@contract';
import type { ConnectionState, HostTransport } from '../host-client';
import { topLevel, type Route } from '../routing/routes';
import { followOpenConversation, navigationState, type NavigationState } from './navigation';
import { appSlice } from './slices/app-slice';
import { chatContextSlice } from './slices/chat-context-slice';
import { chatSlice } from './slices/chat-slice';
import { hostSlice } from './slices/host-slice';
import { logsSlice } from './slices/logs-slice';
import { consentSlice } from './slices/consent-slice';
import { toolsSlice } from './slices/tools-slice';
import { telemetrySlice } from './slices/telemetry-slice';
import { resourcesSlice } from './slices/resources-slice';
import { rootsSlice } from './slices/roots-slice';
import { providersSlice } from './slices/providers-slice';
import { questionsSlice } from './slices/questions-slice';
import { samplingSlice } from './slices/sampling-slice';
import { serversSlice } from './slices/servers-slice';
import { tasksSlice } from './slices/tasks-slice';
import { toolOffersSlice } from './slices/tool-offers-slice';
import { rulesSlice } from './slices/rules-slice';
import { skillsSlice } from './slices/skills-slice';
import type { SlicesState, StoreSlice } from './slices/slice';

/** The pages (named in the contract too: the native menu navigates between them). */
export type Page = AppPage;

/** Connection to the host and navigation (see navigation.ts): the shell's own state. */
export interface ShellState extends NavigationState {
  connection: ConnectionState;
  /** Last failure to load the snapshot, shown instead of a blank screen. */
  loadError: string | null;
}

/** Every area's slice; an area adds its own here in one line (its state joins AppState by itself). */
const SLICES = [
  appSlice,
  hostSlice,
  serversSlice,
  rootsSlice,
  chatSlice,
  logsSlice,
  toolsSlice,
  consentSlice,
  questionsSlice,
  samplingSlice,
  providersSlice,
  resourcesSlice,
  chatContextSlice,
  tasksSlice,
  toolOffersSlice,
  rulesSlice,
  telemetrySlice,
  skillsSlice,
] as const;

/** The renderer mirrors host state (fed by HostEvents); it never owns the truth. */
export type AppState = ShellState & SlicesState<typeof SLICES> & { api: HostApi };
export type AppStore = StoreApi<AppState>;

/** The slices as one list to loop over (each slice's `apply` takes only its own part of the state). */
const slices = SLICES as readonly StoreSlice<object>[];

/**
 * Creates the renderer's store around a transport. Order matters for a reload or reconnect that loses
 * nothing: subscribe to events first, then ask for the snapshot, then apply events as they come.
 */
export function createAppStore(transport: HostTransport, initial: Page | Route = 'chat'): AppStore {
  const api = createHostApi((method, input) => transport.call(method, input));
  const initialRoute = typeof initial === 'string' ? topLevel(initial) : initial;
  const store = createStore<AppState>()((set, get) => ({
    ...(Object.assign({}, ...slices.map((slice) => slice.initial)) as SlicesState<typeof SLICES>),
    api,
    connection: transport.onConnectionChange ? 'connecting' : 'connected',
    loadError: null,
    ...navigationState<AppState>(set, get, initialRoute),
    ...(initialRoute.page === 'chat' && initialRoute.conversationId ? { activeConversationId: initialRoute.conversationId } : {}),
  }));
  followOpenConversation(store);

  transport.subscribe((event: HostEvent) => {
    // The native menu's page shortcuts: navigation is the shell's own state.
    if (event.name === 'menuCommand') store.getState().navigate(event.payload.page);
    for (const slice of slices) {
      const change = slice.apply?.(store.getState(), event);
      if (change) store.setState(change as Partial<AppState>);
    }
  });

  const loadSnapshot = async () => {
    try {
      const snapshot: HostSnapshot = await api.getSnapshot();
      store.setState(Object.assign({ loadError: null }, ...slices.map((slice) => slice.fromSnapshot?.(snapshot) ?? {})));
    } catch (error) {
      store.setState({ loadError: (error as Error).message });
    }
  };

  if (transport.onConnectionChange) {
    transport.onConnectionChange((connection) => {
      store.setState({ connection });
      if (connection === 'connected') void loadSnapshot();
    });
  } else {
    void loadSnapshot();
  }
  return store;
}
