import type { Client, ClientCapabilities, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { ClientFeatures } from '../servers/connection/connection-options';
import type { RequestHandler } from '../servers/sdk-internals/host-client';
import type { ServerCatalog, ServerState } from '../servers/connection/server-state';

/** Which server an observation is about. */
export interface ServerRef {
  id: string;
  name: string;
}

/**
 * What a host area (logs, roots, sampling, elicitation…) adds to every server connection: the client
 * capabilities it implements, the SDK handlers behind them, and observers of the connection's life.
 * The fleet merges all plugins into each connection; areas never reach into the fleet.
 */
export interface ConnectionPlugin {
  /** Declared only when the plugin really implements them (the spec: declare what you do). */
  capabilities?: ClientCapabilities;
  /** Installs request/notification handlers on a fresh SDK client (one per process life). */
  install?(client: Client, server: ServerRef): void;
  /**
   * Wraps the handler of a request the server sends (after the SDK validated it), e.g. to accept a
   * task-augmented request as a task. Return `handler` itself when not interested.
   */
  wrapRequestHandler?(method: string, handler: RequestHandler, server: ServerRef): RequestHandler;
  onStderrLine?(server: ServerRef, line: string): void;
  /** `json`: the message as it crossed the wire, when the transport has it (see `WireTap`). */
  onWire?(server: ServerRef, direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, json?: string): void;
  onWarning?(server: ServerRef, message: string): void;
  /** `pid`: the server's current process, when it has one (a `starting` state with a new pid: just spawned). */
  onStateChange?(server: ServerRef, state: ServerState, pid?: number): void;
  /** The server's catalog (tools, resources, templates, prompts) was replaced: at ready, after a list_changed, a refresh. */
  onCatalogChange?(server: ServerRef, catalog: ServerCatalog): void;
  /** The server was removed: forget everything about it. */
  onRemoved?(server: ServerRef): void;
  /**
   * The server is about to be spawned with this configuration (before any of its output can arrive).
   * Carries the secret values only so an observer can redact them (the logs); never store or show them.
   */
  onLaunch?(server: ServerRef, launch: LaunchInfo): void;
}

/** What a server is launched with, as `onLaunch` observers see it. */
export interface LaunchInfo {
  command: string;
  args: string[];
  cwd: string;
  /** The server's configured variables; a secret's value is left out here. */
  env: { key: string; value?: string; secret: boolean }[];
  /** The values of the variables marked secret: for redaction only. */
  secretValues: string[];
}

/** The `LaunchInfo` of a launch config whose variables named in `secretKeys` are secret. */
export function launchInfo(
  config: { command: string; args?: string[]; cwd?: string; env?: Record<string, string>; remote?: { headers: Record<string, string> } },
  secretKeys: ReadonlySet<string>,
): LaunchInfo {
  const env = Object.entries(config.env ?? {});
  // A remote server's secret headers (API keys) are redacted like secret variables.
  const headers = Object.entries(config.remote?.headers ?? {});
  return {
    command: config.command,
    args: config.args ?? [],
    cwd: config.cwd ?? '',
    env: env.map(([key, value]) => (secretKeys.has(key) ? { key, secret: true } : { key, value, secret: false })),
    secretValues: [...env, ...headers].filter(([key]) => secretKeys.has(key)).map(([, value]) => value),
  };
}

/**
 * Merges plugins' capabilities (shallow per capability, later plugins win on the same key), except
 * `extensions`, merged per extension id: each extension is its own area's (MCP Apps, skills).
 */
export function mergeCapabilities(plugins: readonly ConnectionPlugin[]): ClientCapabilities {
  const merged: ClientCapabilities = {};
  for (const plugin of plugins) {
    const extensions = {
      ...(merged as { extensions?: object }).extensions,
      ...(plugin.capabilities as { extensions?: object } | undefined)?.extensions,
    };
    Object.assign(merged, plugin.capabilities);
    if (Object.keys(extensions).length > 0) Object.assign(merged, { extensions });
  }
  return merged;
}

/** The `ClientFeatures` a connection to `server` gets from all plugins. */
export function clientFeaturesFor(plugins: readonly ConnectionPlugin[], server: ServerRef): ClientFeatures {
  return {
    capabilities: mergeCapabilities(plugins),
    install: (client) => {
      for (const plugin of plugins) plugin.install?.(client, server);
    },
    wrapHandler: (method, handler) =>
      plugins.reduce((wrapped, plugin) => plugin.wrapRequestHandler?.(method, wrapped, server) ?? wrapped, handler),
  };
}

/**
 * The observers of the two hooks that run for every JSON-RPC message and every stderr line, picked
 * once per connection start: `notifyPlugins` looks the hook up on every plugin (most have none) and
 * spreads the arguments, which on this path is paid three times per tool call. Same isolation: a failing plugin
 * never breaks the connection or the others.
 */
export function streamObservers(plugins: readonly ConnectionPlugin[]) {
  const wire = plugins.filter((plugin) => plugin.onWire);
  const stderr = plugins.filter((plugin) => plugin.onStderrLine);
  return {
    onWire(server: ServerRef, direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, json?: string): void {
      for (const plugin of wire) {
        try {
          plugin.onWire!(server, direction, message, bytes, json);
        } catch (error) {
          console.error('[patchbay] connection plugin onWire failed:', error);
        }
      }
    },
    onStderrLine(server: ServerRef, line: string): void {
      for (const plugin of stderr) {
        try {
          plugin.onStderrLine!(server, line);
        } catch (error) {
          console.error('[patchbay] connection plugin onStderrLine failed:', error);
        }
      }
    },
  };
}

/** Calls one observer on every plugin; a failing plugin never breaks the connection or the others. */
export function notifyPlugins<K extends 'onWarning' | 'onStateChange' | 'onCatalogChange' | 'onRemoved' | 'onLaunch'>(
  plugins: readonly ConnectionPlugin[],
  hook: K,
  ...args: Parameters<NonNullable<ConnectionPlugin[K]>>
): void {
  for (const plugin of plugins) {
    try {
      (plugin[hook] as ((...a: unknown[]) => void) | undefined)?.(...args);
    } catch (error) {
      console.error(`[patchbay] connection plugin ${hook} failed:`, error);
    }
  }
}
