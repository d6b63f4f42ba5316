/**
 * Where the app is, as the store's state: the one source of truth for navigation. The route is
 * mirrored to the address (routing/hash-history.ts) and set from it on a reload, Back or Forward;
 * everything in the app that moves somewhere calls `go` or `navigate`.
 *
 * The Chat page's open conversation (`activeConversationId`, the chat slice's) follows the route
 * while Chat is shown, and is kept when another page is, so Chat comes back to it.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { AppPage } from '@contract';
import { sameRoute, topLevel, type Route } from '../routing/routes';

/** Something a page does once it shows, asked for from elsewhere (the palette, a shortcut). */
export type IntentKind =
  | 'add-server'
  | 'import-servers'
  | 'find-servers'
  | 'focus-message'
  | 'focus-api-key'
  /** Scroll to and focus a tool call's card (`target`: its toolUseId) in the route's conversation. */
  | 'focus-tool-card'
  /** Open and focus a call's entry in the audit trail (`target`: its callId). */
  | 'focus-audit-entry'
  /** Filter the route's Protocol log to one request (`target`: the filter's text). */
  | 'filter-protocol-log';
export interface Intent {
  kind: IntentKind;
  /** Tells two requests of the same kind apart (each is carried out once). */
  seq: number;
  /** What the intent is about, for kinds that need it (a card, an entry, a filter). */
  target?: string;
}

export interface NavigationState {
  route: Route;
  /** The route's page (kept beside it for the many readers that only need the page). */
  page: AppPage;
  /** How the last route change goes into the browser's history: a new entry, or in place of the current one. */
  routeHistory: 'push' | 'replace';
  /**
   * Said once above the page: an address that could not be shown as asked (not understood, or what it
   * names is gone), or an action from elsewhere (the palette) that failed.
   */
  notice: string | null;
  intent: Intent | null;
  /** To a page's top level (its sidebar entry; the native menu). */
  navigate(page: AppPage): void;
  /** To a route; `replace` changes the current history entry instead of adding one; `notice` says why it is not what was asked. */
  go(route: Route, options?: { replace?: boolean; notice?: string }): void;
  say(notice: string): void;
  dismissNotice(): void;
  /** Asks the page that handles `kind` to do it (it goes to that page first, or to `route` when given). */
  request(kind: IntentKind, options?: { route?: Route; target?: string }): void;
  /** Marks an intent as carried out (only if it is still the current one). */
  finishIntent(intent: Intent): void;
}

/** Where each intent is carried out (the key's field is in Settings › Preferences). */
const INTENT_ROUTE: Record<IntentKind, Route> = {
  'add-server': topLevel('servers'),
  'import-servers': topLevel('servers'),
  'find-servers': topLevel('servers'),
  'focus-message': topLevel('chat'),
  'focus-api-key': { page: 'settings', section: 'preferences' },
  'focus-tool-card': topLevel('chat'),
  'focus-audit-entry': { page: 'settings', section: 'consent' },
  'filter-protocol-log': topLevel('logs'),
};

/** The part of the store navigation reads and writes besides its own. */
interface NavigationHost extends NavigationState {
  activeConversationId: string | null;
}

/**
 * The navigation state and its actions. `set`/`get` are the store's; the chat page's open
 * conversation is kept in step here so that no other place has to.
 */
export function navigationState<S extends NavigationHost>(
  set: StoreApi<S>['setState'],
  get: StoreApi<S>['getState'],
  initial: Route,
): NavigationState {
  let intentSeq = 0;
  const go: NavigationState['go'] = (requested, options = {}) => {
    const state = get();
    // Chat without a conversation shows the one that was open (a sidebar click comes back to it).
    const route: Route =
      requested.page === 'chat' && !requested.conversationId && state.activeConversationId
        ? { page: 'chat', conversationId: state.activeConversationId }
        : requested;
    const change: Partial<NavigationHost> = {};
    if (route.page === 'chat' && route.conversationId && route.conversationId !== state.activeConversationId) {
      change.activeConversationId = route.conversationId;
    }
    if (!sameRoute(route, state.route)) {
      Object.assign(change, { route, page: route.page, routeHistory: options.replace ? 'replace' : 'push' });
    }
    if (options.notice !== undefined) change.notice = options.notice;
    else if (change.route && !options.replace) change.notice = null; // moving on: an old notice goes
    if (Object.keys(change).length > 0) set(change as Partial<S>);
  };
  return {
    route: initial,
    page: initial.page,
    routeHistory: 'replace',
    notice: null,
    intent: null,
    go,
    navigate: (page) => go(topLevel(page)),
    say: (notice) => set({ notice } as Partial<S>),
    dismissNotice: () => set({ notice: null } as Partial<S>),
    request(kind, options = {}) {
      const route = options.route ?? INTENT_ROUTE[kind];
      if (options.route || get().page !== route.page) go(route);
      const intent: Intent = { kind, seq: ++intentSeq, ...(options.target !== undefined ? { target: options.target } : {}) };
      set({ intent } as Partial<S>);
    },
    finishIntent(intent) {
      if (get().intent?.seq === intent.seq) set({ intent: null } as Partial<S>);
    },
  };
}

/**
 * Keeps the route in step with the Chat page's open conversation when something other than
 * navigation changes it (a new conversation, the open one deleted, the newest opened on arrival).
 * Such changes replace the current history entry: they are not places the user went to.
 */
export function followOpenConversation<S extends NavigationHost>(store: StoreApi<S>): () => void {
  return store.subscribe((state, previous) => {
    if (state.activeConversationId === previous.activeConversationId || state.route.page !== 'chat') return;
    const id = state.activeConversationId;
    if ((state.route.conversationId ?? null) === id) return;
    const route: Route = id ? { page: 'chat', conversationId: id } : { page: 'chat' };
    store.setState({ route, page: 'chat', routeHistory: 'replace' } as Partial<S>);
  });
}
