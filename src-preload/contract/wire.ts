/** How calls and events cross a transport: limits, channels and frames shared by every bridge. */
/** Largest call the host accepts on any transport. */
export const MAX_CALL_BYTES = 1024 * 1024;

/** Electron IPC channels (one for calls, one for events). */
export const IPC_CALL_CHANNEL = 'patchbay:call';
export const IPC_EVENT_CHANNEL = 'patchbay:event';

/** The path the web-mode host serves its WebSocket on. */
export const WS_PATH = '/ws';
/** WebSocket subprotocols: the one the host selects, and the prefix that carries the tab's credential. */
export const WS_SUBPROTOCOL = 'patchbay.v1';
export const WS_CREDENTIAL_PREFIX = 'patchbay.session.';
/** The meta tag through which a tokened page load hands the tab its WebSocket credential. */
export const SESSION_META_NAME = 'patchbay-session';
