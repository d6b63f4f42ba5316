/** How calls and events cross a transport: limits, channels and frames shared by every bridge. */
import type { HostError } from './errors';
import { formatBytes } from './sizes';

/** Largest call the host accepts on any transport. */
export const MAX_CALL_BYTES = 1024 * 1024;

/** The answer to a call of `byteLength` bytes when that is more than a call may carry (else undefined). */
export function callSizeError(byteLength: number, limit = MAX_CALL_BYTES): HostError | undefined {
  if (byteLength <= limit) return undefined;
  return {
    code: 'payload_too_large',
    message: `This request (${formatBytes(byteLength)}) is larger than the ${formatBytes(limit)} a call may carry.`,
  };
}

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
