import type { HostHandlers, HostInfo, HostMode, ProviderPreset } from '@contract';
import type { AppArea } from './app/app-area';
import type { HostEventBus } from './events';
import type { AppFrameServer } from './mcp-apps/app-frame-server';
import type { ToolRouter } from './tools/tool-router';
import type { Clock } from './clock';
import type { RootsTimings } from './roots/roots-area';
import type { ZipLimits } from './safe-zip';
import type { FleetConnectionDefaults } from './server-fleet/fleet-options';
import type { SecretBox } from './secrets/secret-box';
import type { TokenizerWorkerOptions } from './context-meter/tokenizer-worker';

/**
 * What the core needs from the outside world. The Electron glue and the web-mode launcher each
 * provide one; tests provide their own. Interfaces only: no implementation lives here.
 */
export interface HostPorts {
  mode: HostMode;
  /** Per-user data directory; the database and every other file of ours lives below it. */
  dataDir: string;
  appVersion: string;
  /** Path to an Electron-ABI better-sqlite3 build when running in Electron (see scripts/electron-native.mjs). */
  sqliteNativeBinding?: string;
  clock?: Clock;
  /** Seals secrets before they reach SQLite; defaults to a key file in the data directory. */
  secrets?: SecretBox;
  /** Connection settings for every server (tests shorten waits here). */
  connectionDefaults?: FleetConnectionDefaults;
  /** The native folder picker (Electron); resolves undefined when cancelled. Web mode has none. */
  pickFolder?: () => Promise<string | undefined>;
  /** Roots timings (consent timeout, roots/list hold, availability checks); tests shorten them. */
  roots?: RootsTimings;
  /**
   * Opens a URL in the system browser (Electron: shell.openExternal), for OAuth sign-in. Web mode has
   * none: the page opens the URL in a new tab. Tests and the conformance runner pass a headless browser.
   */
  openExternal?: (url: string) => Promise<void>;
  /** Quits and starts the app again (Electron: app.relaunch), to finish restoring a backup. Web mode has none. */
  relaunch?: () => void;
  /**
   * False: a new local server added without a sandbox choice (an import, an API call) starts
   * unsandboxed. Default true: sandboxed where this machine can run a sandbox. The test host turns it
   * off for fixtures that predate the default; tests of the default turn it back on.
   */
  sandboxByDefault?: boolean;
  /** Limits for `.mcpb` archives (tests make them small). */
  bundleLimits?: ZipLimits;
  /** Finds a program on the user's PATH (uv for Python bundles); defaults to the login-shell PATH lookup. */
  findCommand?: (name: string) => Promise<string | undefined>;
  /** The local presets Settings › Providers detects (default: Ollama and LM Studio on their ports); tests point them elsewhere. */
  providerPresets?: readonly ProviderPreset[];
  /** The context meter's tokenizer worker; tests give it a source that fails or waits. */
  tokenizer?: TokenizerWorkerOptions;
}

/** A running host core: the handlers every bridge dispatches to, its events, and one way to stop. */
export interface Host {
  readonly handlers: HostHandlers;
  readonly events: HostEventBus;
  readonly info: HostInfo;
  /**
   * In-process only (the chat loop, tests, the e2e harness): the tool router whose
   * `callToolWithConsent` is the one path for model-initiated calls. No bridge ever sees it: bridges
   * dispatch to `handlers`, and the contract has no method that runs a tool as the model.
   */
  readonly tools: ToolRouter;
  /**
   * In-process only (the Electron glue): open requests from the OS, the updater's state, a window
   * crash, and the app log file. Reached by the renderer through the contract's app methods.
   */
  readonly app: AppArea;
  /**
   * In-process only (the bridges): the origin MCP Apps are shown on — a second loopback listener
   * serving the frame proxy. Web mode and the Electron glue say which renderer origin may frame it.
   */
  readonly appFrames: AppFrameServer;
  /**
   * Reaps server processes a killed Patchbay left behind, then starts every enabled server
   * concurrently. Call it after the first paint; it returns before any server is ready.
   */
  startServers(): Promise<void>;
  /** Ordered shutdown: stop every server (in parallel), stop emitting, close the database. Safe to call twice. */
  dispose(): Promise<void>;
}
