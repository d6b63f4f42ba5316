/**
 * THE contract between the renderer and the host core.
 *
 * Every method and event the renderer can use is declared here, once: each area keeps its schemas,
 * types, methods and events in its own module under `contract/`, and this file composes them. The
 * Electron IPC handlers, the preload bridge, the WebSocket bridge and the renderer's client are all
 * derived by looping over `HOST_METHODS`, so adding a method means editing its area module and the
 * core only.
 *
 * This module (and everything under `contract/`) must stay free of Node and DOM APIs: it is compiled
 * into the core, the preload and the renderer alike.
 */
import type { z } from 'zod';
import { appMethods, type AppEvents } from './contract/app';
import { backupMethods } from './contract/backup';
import { bundleMethods } from './contract/bundles';
import { HostCallError, type CallResult } from './contract/errors';
import { chatMethods, type ChatEvents } from './contract/chat';
import { completionMethods } from './contract/completion';
import { contextMethods } from './contract/context';
import { contentAuditMethods, type ContentAuditEvents } from './contract/content-audit';
import { consentMethods, type ConsentEvents } from './contract/consent';
import type { HostSnapshot } from './contract/host';
import { installMethods } from './contract/install';
import { logMethods, type LogEvents } from './contract/logs';
import { mcpAppMethods } from './contract/mcp-apps';
import { method, NoInput } from './contract/method';
import { registryMethods } from './contract/registry';
import { providerMethods, type ProviderEvents } from './contract/providers';
import { promptMethods } from './contract/prompts';
import { questionMethods, type QuestionEvents } from './contract/questions';
import { resourceMethods, type ResourceEvents } from './contract/resources';
import { rootsMethods, type RootsEvents } from './contract/roots';
import { ruleMethods, type RuleEvents } from './contract/rules';
import { samplingMethods, type SamplingEvents } from './contract/sampling';
import { serverMethods, signInMethods, type ServerEvents } from './contract/servers';
import { settingsMethods, type SettingsEvents } from './contract/settings';
import { skillMethods, type SkillEvents } from './contract/skills';
import { taskMethods, type TaskEvents } from './contract/tasks';
import { telemetryMethods, type TelemetryEvents } from './contract/telemetry';
import { toolMethods, type ToolEvents } from './contract/tools';
import { toolOfferMethods, type ToolOfferEvents } from './contract/tool-offers';
import { uploadMethods } from './contract/uploads';

export * from './contract/app';
export * from './contract/backup';
export * from './contract/bundles';
export * from './contract/chat';
export * from './contract/command-risks';
export * from './contract/completion';
export * from './contract/content';
export * from './contract/content-audit';
export * from './contract/context';
export * from './contract/consent';
export * from './contract/errors';
export * from './contract/host';
export * from './contract/install';
export * from './contract/invisible-text';
export * from './contract/launch-diagnosis';
export * from './contract/logs';
export * from './contract/mcp-apps';
export * from './contract/messages';
export * from './contract/content-flags';
export * from './contract/registry';
export * from './contract/providers';
export * from './contract/prompts';
export * from './contract/questions';
export * from './contract/resources';
export * from './contract/package-runners';
export * from './contract/roots';
export * from './contract/rules';
export * from './contract/sandbox';
export * from './contract/sampling';
export * from './contract/servers';
export * from './contract/settings';
export * from './contract/sizes';
export * from './contract/skills';
export * from './contract/tasks';
export * from './contract/telemetry';
export * from './contract/tool-call-origin';
export * from './contract/tools';
export * from './contract/tool-offers';
export * from './contract/uploads';
export * from './contract/uri-template';
export * from './contract/wire';

/**
 * Every host method. The key is the method name; `input` validates the single argument in main.
 * Methods take at most one argument (an object), which keeps every transport trivial.
 */
export const HOST_METHODS = {
  /** Current full state; the renderer calls it after subscribing to events. */
  getSnapshot: method<typeof NoInput, HostSnapshot>(NoInput),
  ...settingsMethods,
  ...serverMethods,
  ...signInMethods,
  ...rootsMethods,
  ...chatMethods,
  ...toolMethods,
  ...consentMethods,
  ...questionMethods,
  ...logMethods,
  ...samplingMethods,
  ...appMethods,
  ...installMethods,
  ...registryMethods,
  ...bundleMethods,
  ...uploadMethods,
  ...backupMethods,
  ...providerMethods,
  ...resourceMethods,
  ...promptMethods,
  ...completionMethods,
  ...contentAuditMethods,
  ...taskMethods,
  ...mcpAppMethods,
  ...contextMethods,
  ...toolOfferMethods,
  ...ruleMethods,
  ...telemetryMethods,
  ...skillMethods,
};

export type HostMethodName = keyof typeof HOST_METHODS;
export const HOST_METHOD_NAMES = Object.keys(HOST_METHODS) as HostMethodName[];

type MethodInput<K extends HostMethodName> = z.input<(typeof HOST_METHODS)[K]['input']>;
type MethodOutput<K extends HostMethodName> = Exclude<(typeof HOST_METHODS)[K]['output'], undefined>;

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

/**
 * The handlers of one group of methods, named by the contract's own method object (e.g.
 * `HandlersFor<typeof toolMethods>`), so a handler module never repeats the method names.
 */
export type HandlersFor<Methods> = Pick<HostHandlers, keyof Methods & HostMethodName>;

export function isHostMethodName(name: unknown): name is HostMethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(HOST_METHODS, name);
}

/** Makes one call over some transport; resolves with the value or the error shape, never rejects for a host error. */
export type HostCaller = (method: HostMethodName, input: unknown) => Promise<CallResult>;

/**
 * The typed `HostApi` over any caller, built by looping over the contract (no per-method code): the
 * renderer wraps its transport with it, and everything in-process that calls the host "as a bridge
 * does" (tests, benchmarks, the conformance driver) wraps `dispatchCall`. A failed call throws
 * `HostCallError`.
 */
export function createHostApi(call: HostCaller): HostApi {
  const api: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const method of HOST_METHOD_NAMES) {
    api[method] = async (input?: unknown) => {
      const result = await call(method, input);
      if (!result.ok) throw HostCallError.from(result.error);
      return result.value;
    };
  }
  return api as HostApi;
}

/** Every event the host pushes (main → renderer), with its payload. */
export interface HostEvents
  extends
    SettingsEvents,
    ServerEvents,
    RootsEvents,
    ChatEvents,
    ToolEvents,
    ConsentEvents,
    QuestionEvents,
    LogEvents,
    SamplingEvents,
    AppEvents,
    ProviderEvents,
    ResourceEvents,
    ContentAuditEvents,
    TaskEvents,
    ToolOfferEvents,
    RuleEvents,
    TelemetryEvents,
    SkillEvents {}

export type HostEventName = keyof HostEvents;

/** One pushed event, as it crosses a transport. */
export type HostEvent = { [K in HostEventName]: { name: K; payload: HostEvents[K] } }[HostEventName];

/** WebSocket frames. A call carries an id the reply echoes; events carry none. */
export type ClientFrame = { type: 'call'; id: number; method: string; input?: unknown };
export type ServerFrame = { type: 'result'; id: number | null; result: CallResult } | { type: 'event'; event: HostEvent };
