/**
 * THE contract between the renderer and the host core.
 *
 * Every method and event the renderer can use is declared here, once. The Electron IPC handlers, the
 * preload bridge, the WebSocket bridge and the renderer's client are all derived by looping over
 * `HOST_METHODS` / `HOST_EVENT_NAMES`, so adding a method means editing this file and the core only.
 *
 * This module must stay free of Node and DOM APIs: it is compiled into the core, the preload and the
 * renderer alike.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------
// Shared value types
// ---------------------------------------------------------------------------------------------------

/** The one error shape that crosses every boundary (IPC, WebSocket, renderer). */
export interface HostError {
  code: HostErrorCode;
  message: string;
  data?: unknown;
}

export type HostErrorCode =
  | 'bad_request' // the frame itself is not a call (not JSON, wrong shape)
  | 'unknown_method'
  | 'invalid_input' // zod rejected the input; `data` lists the issues
  | 'payload_too_large'
  | 'forbidden'
  | 'storage' // SQLite refused or failed
  | 'internal';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** User settings persisted in SQLite. Every key has a default, so a new install needs nothing. */
export const SettingsSchema = z.object({
  theme: z.enum(THEMES),
  /** Where the Anthropic SDK sends requests; empty means the SDK's default endpoint. */
  anthropicBaseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
  defaultModel: z.string().trim().min(1).max(200),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  anthropicBaseUrl: '',
  defaultModel: 'claude-sonnet-4-5',
};

export const SettingsPatchSchema = SettingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export type HostMode = 'electron' | 'web';

/** How the database came up at start. */
export interface DatabaseStatus {
  path: string;
  state: 'ok' | 'recovered';
  schemaVersion: number;
  journalMode: string;
  synchronous: 'FULL' | 'NORMAL' | 'OFF' | 'EXTRA';
  /** Set when a corrupt database was moved aside at start: where the old files went. */
  movedAsideTo?: string;
}

/** Everything the renderer shows about the host itself. */
export interface HostInfo {
  appName: string;
  version: string;
  mode: HostMode;
  dataDir: string;
  platform: string;
  runtime: string;
  database: DatabaseStatus;
  startedAt: string;
}

/** Full current state, sent first on (re)connect; events then keep it current. */
export interface HostSnapshot {
  info: HostInfo;
  settings: Settings;
}

// ---------------------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------------------

/** Declares a method: the zod schema validating its input in main, and (phantom) its output type. */
function method<In extends z.ZodType, Out>(input: In): { input: In; output?: Out } {
  return { input };
}

const NoInput = z.undefined();

/**
 * Every host method. The key is the method name; `input` validates the single argument in main.
 * Methods take at most one argument (an object), which keeps every transport trivial.
 */
export const HOST_METHODS = {
  /** Current full state; the renderer calls it after subscribing to events. */
  getSnapshot: method<typeof NoInput, HostSnapshot>(NoInput),
  /** Applies a partial settings change; resolves with the settings as committed to SQLite. */
  updateSettings: method<typeof SettingsPatchSchema, Settings>(SettingsPatchSchema),
};

export type HostMethodName = keyof typeof HOST_METHODS;
export const HOST_METHOD_NAMES = Object.keys(HOST_METHODS) as HostMethodName[];

type MethodInput<K extends HostMethodName> = z.input<(typeof HOST_METHODS)[K]['input']>;
type MethodOutput<K extends HostMethodName> = NonNullable<(typeof HOST_METHODS)[K]['output']>;

/** The API as the renderer sees it: one promise-returning function per method. */
export type HostApi = {
  [K in HostMethodName]: undefined extends MethodInput<K>
    ? (input?: MethodInput<K>) => Promise<MethodOutput<K>>
    : (input: MethodInput<K>) => Promise<MethodOutput<K>>;
};

/** The API as the core implements it: inputs arrive already validated (zod output types). */
export type HostHandlers = {
  [K in HostMethodName]: (input: z.output<(typeof HOST_METHODS)[K]['input']>) => Promise<MethodOutput<K>>;
};

export function isHostMethodName(name: unknown): name is HostMethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(HOST_METHODS, name);
}

// ---------------------------------------------------------------------------------------------------
// Events (main → renderer)
// ---------------------------------------------------------------------------------------------------

/** Every event the host pushes, with its payload. */
export interface HostEvents {
  settingsChanged: Settings;
}

export type HostEventName = keyof HostEvents;

/** One pushed event, as it crosses a transport. */
export type HostEvent = { [K in HostEventName]: { name: K; payload: HostEvents[K] } }[HostEventName];

// ---------------------------------------------------------------------------------------------------
// Wire format shared by the Electron IPC and WebSocket bridges
// ---------------------------------------------------------------------------------------------------

/** The result of one call: either a value or the one error shape. Never a thrown exception. */
export type CallResult<T = unknown> = { ok: true; value: T } | { ok: false; error: HostError };

/** Electron IPC channels (one for calls, one for events). */
export const IPC_CALL_CHANNEL = 'patchbay:call';
export const IPC_EVENT_CHANNEL = 'patchbay:event';

/** Largest call the host accepts on any transport. */
export const MAX_CALL_BYTES = 1024 * 1024;

/** WebSocket frames. A call carries an id the reply echoes; events carry none. */
export type ClientFrame = { type: 'call'; id: number; method: string; input?: unknown };
export type ServerFrame =
  | { type: 'result'; id: number | null; result: CallResult }
  | { type: 'event'; event: HostEvent };

/** The path the web-mode host serves its WebSocket on. */
export const WS_PATH = '/ws';
/** WebSocket subprotocols: the one the host selects, and the prefix that carries the tab's credential. */
export const WS_SUBPROTOCOL = 'patchbay.v1';
export const WS_CREDENTIAL_PREFIX = 'patchbay.session.';
/** The meta tag through which a tokened page load hands the tab its WebSocket credential. */
export const SESSION_META_NAME = 'patchbay-session';
