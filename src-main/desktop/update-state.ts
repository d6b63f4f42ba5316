/**
 * The updater as a state machine: what the user's switch and electron-updater's events do to the
 * state the renderer shows. Pure, so every transition is tested without Electron; the glue in
 * src-main/electron/updater.ts feeds it.
 */
import type { UpdateState } from '@contract';

/** Everything that moves the updater's state. */
export type UpdateEvent =
  | { type: 'unsupported'; reason: string }
  | { type: 'turned-off' }
  | { type: 'turned-on' }
  | { type: 'checking' }
  | { type: 'not-available'; at: string }
  | { type: 'available'; version: string }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string }
  | { type: 'install-on-quit' }
  | { type: 'error'; message: string; at: string };

/** How often the feed is checked while updates are on (besides once at start). */
export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The first check waits this long after start: the window and the servers come first. */
export const FIRST_CHECK_DELAY_MS = 15_000;

const active = (state: UpdateState) => state.status !== 'off' && state.status !== 'unsupported';

/**
 * The next state. The switch and `unsupported` always apply; the updater's own events only while
 * updates are on. A downloaded update stays ready (and installable) whatever later checks say: a
 * failed check must not take away an update the user can already install.
 */
export function nextUpdateState(state: UpdateState, event: UpdateEvent): UpdateState {
  switch (event.type) {
    case 'unsupported':
      return { status: 'unsupported', reason: event.reason };
    case 'turned-off':
      return state.status === 'unsupported' ? state : { status: 'off' };
    case 'turned-on':
      return state.status === 'off' ? { status: 'idle' } : state;
  }
  if (!active(state)) return state;
  if (state.status === 'ready') {
    return event.type === 'install-on-quit' ? { ...state, installOnQuit: true } : state;
  }
  switch (event.type) {
    case 'checking':
      return state.status === 'downloading' ? state : { status: 'checking' };
    case 'not-available':
      return { status: 'up-to-date', checkedAt: event.at };
    case 'available':
      return { status: 'downloading', version: event.version, percent: 0 };
    case 'progress':
      return state.status === 'downloading' ? { ...state, percent: Math.max(0, Math.min(100, Math.round(event.percent))) } : state;
    case 'downloaded':
      return { status: 'ready', version: event.version, installOnQuit: false };
    case 'install-on-quit':
      return state;
    case 'error':
      return { status: 'error', message: event.message, at: event.at };
  }
}

/** Whether a (scheduled or asked-for) check may start now: not while one runs or a download is under way or done. */
export function mayCheck(state: UpdateState): boolean {
  return state.status === 'idle' || state.status === 'up-to-date' || state.status === 'error';
}

/** Error codes electron-updater and Node use, and what they mean to a person. */
const KNOWN_ERRORS: Record<string, string> = {
  ERR_UPDATER_CHANNEL_FILE_NOT_FOUND: 'the feed has no release information for this platform',
  ERR_UPDATER_LATEST_VERSION_NOT_FOUND: 'the feed has no release',
  ERR_UPDATER_INVALID_RELEASE_FEED: 'the feed is not a release feed',
  ERR_UPDATER_NO_PUBLISHED_VERSIONS: 'the repository has no published release',
  ERR_CHECKSUM_MISMATCH: 'the downloaded update did not match its checksum (it was discarded)',
  ENOTFOUND: 'cannot reach the update feed (the host name does not resolve)',
  ECONNREFUSED: 'cannot reach the update feed (connection refused)',
  ECONNRESET: 'the connection to the update feed was reset',
  ETIMEDOUT: 'the update feed did not answer in time',
  ERR_INTERNET_DISCONNECTED: 'this computer is offline',
  ERR_NAME_NOT_RESOLVED: 'cannot reach the update feed (the host name does not resolve)',
};

/** A failure in one line a person can read: the known meaning first, then the first line of the message, bounded. */
export function describeUpdateError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n', 1)[0].trim().slice(0, 300);
  const known = typeof code === 'string' ? KNOWN_ERRORS[code] : Object.entries(KNOWN_ERRORS).find(([name]) => message.includes(name))?.[1];
  return known ? `${known} (${firstLine})` : firstLine || 'unknown error';
}
