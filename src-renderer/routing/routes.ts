/**
 * The app's addresses: every page and detail as a hash route (`#/servers/<id>/tools`), so a reload
 * comes back to the same place, Back and Forward work, and a place can be linked to. Hash routes work
 * the same in a browser (web mode) and in Electron, which loads the renderer from a file.
 *
 * Pure mapping between a `Route` and its hash; the store holds the route (stores/navigation.ts) and
 * routing/hash-history.ts keeps the address bar and the browser history in step with it.
 */
import { APP_PAGES, LOG_STREAMS, type AppPage, type LogStream } from '@contract';

/** The tabs of a server's detail, in their order. */
export const SERVER_TABS = ['overview', 'tools', 'skills', 'resources', 'prompts', 'tasks', 'logs'] as const;
export type ServerTab = (typeof SERVER_TABS)[number];

/** The sections of Settings, in their order on the page (each a heading the route scrolls to). */
export const SETTINGS_SECTIONS = [
  'preferences',
  'providers',
  'updates',
  'backup',
  'consent',
  'rules',
  'toolsets',
  'skills',
  'requests',
  'content',
  'telemetry',
  'about',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** Where the app is. Absent parts mean the page's top level (its list, its first tab). */
export type Route =
  | { page: 'chat'; conversationId?: string }
  | { page: 'servers'; serverId?: string; tab?: ServerTab; tool?: string }
  | { page: 'roots' }
  | { page: 'logs'; serverId?: string; stream?: LogStream }
  | { page: 'settings'; section?: SettingsSection };

/** A parsed address: the route to show, and why it is not exactly what was asked for (an unknown address). */
export interface ParsedRoute {
  route: Route;
  /** Set when the address was not understood and the route fell back. */
  problem?: string;
}

const isPage = (value: string): value is AppPage => (APP_PAGES as readonly string[]).includes(value);
const isTab = (value: string): value is ServerTab => (SERVER_TABS as readonly string[]).includes(value);
const isStream = (value: string): value is LogStream => (LOG_STREAMS as readonly string[]).includes(value);
const isSection = (value: string): value is SettingsSection => (SETTINGS_SECTIONS as readonly string[]).includes(value);

/** The top level of a page: what its entry in the sidebar shows. */
export function topLevel(page: AppPage): Route {
  return { page } as Route;
}

function decode(segment: string): string | undefined {
  try {
    const value = decodeURIComponent(segment);
    return value === '' ? undefined : value;
  } catch {
    return undefined; // a malformed %-escape
  }
}

/**
 * Reads a hash (`#/servers/abc/tools`, with or without `#`). An empty hash is Chat; anything not
 * understood falls back to the nearest page that is (or Chat), saying what was not understood.
 */
export function parseRoute(hash: string): ParsedRoute {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '').replace(/\/+$/, '');
  if (path === '') return { route: { page: 'chat' } };
  const raw = path.split('/');
  const parts = raw.map(decode);
  const [head, a, b, c] = parts;
  const extra = (from: number) => raw.length > from;
  const fallback = (route: Route): ParsedRoute => ({ route, problem: `Patchbay has no page at “#/${path}”.` });
  if (!head || !isPage(head)) return fallback({ page: 'chat' });

  switch (head) {
    case 'chat':
      if (extra(2) || (extra(1) && !a)) return fallback({ page: 'chat' });
      return { route: a ? { page: 'chat', conversationId: a } : { page: 'chat' } };
    case 'servers': {
      if (!extra(1)) return { route: { page: 'servers' } };
      if (!a) return fallback({ page: 'servers' });
      if (!extra(2)) return { route: { page: 'servers', serverId: a, tab: 'overview' } };
      if (!b || !isTab(b)) return fallback({ page: 'servers', serverId: a, tab: 'overview' });
      if (!extra(3)) return { route: { page: 'servers', serverId: a, tab: b } };
      if (b === 'tools' && c && !extra(4)) return { route: { page: 'servers', serverId: a, tab: 'tools', tool: c } };
      return fallback({ page: 'servers', serverId: a, tab: b });
    }
    case 'logs': {
      if (!extra(1)) return { route: { page: 'logs' } };
      if (!a) return fallback({ page: 'logs' });
      if (!extra(2)) return { route: { page: 'logs', serverId: a } };
      if (!b || !isStream(b) || extra(3)) return fallback({ page: 'logs', serverId: a });
      return { route: { page: 'logs', serverId: a, stream: b } };
    }
    case 'settings':
      if (!extra(1)) return { route: { page: 'settings' } };
      if (!a || !isSection(a) || extra(2)) return fallback({ page: 'settings' });
      return { route: { page: 'settings', section: a } };
    case 'roots':
      return extra(1) ? fallback({ page: 'roots' }) : { route: { page: 'roots' } };
  }
}

/** The hash of a route (`#/servers/abc/tools`); ids and names are %-encoded, so any character is safe. */
export function formatRoute(route: Route): string {
  const parts: string[] = [route.page];
  switch (route.page) {
    case 'chat':
      if (route.conversationId) parts.push(route.conversationId);
      break;
    case 'servers':
      if (route.serverId) {
        parts.push(route.serverId, route.tab ?? 'overview');
        if (route.tab === 'tools' && route.tool) parts.push(route.tool);
      }
      break;
    case 'logs':
      if (route.serverId) {
        parts.push(route.serverId);
        if (route.stream) parts.push(route.stream);
      }
      break;
    case 'settings':
      if (route.section) parts.push(route.section);
      break;
    case 'roots':
      break;
  }
  return `#/${parts.map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/')}`;
}

/** Two routes name the same place (their hashes are equal). */
export function sameRoute(a: Route, b: Route): boolean {
  return formatRoute(a) === formatRoute(b);
}
