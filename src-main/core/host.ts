import process from 'node:process';
import type { HostHandlers, HostInfo, HostSnapshot } from '../../src-preload/contract';
import { createChatArea } from './chat/chat-area';
import { HostEventBus } from './events';
import { systemClock } from './clock';
import type { HostPorts } from './ports';
import { KeyFileSecretBox } from './secrets/key-file-secret-box';
import { ServerConfigRepository } from './server-config/server-config-repository';
import { SqliteLiveProcessStore } from './server-fleet/live-process-store';
import { ServerFleet } from './server-fleet/server-fleet';
import { listFleetTools } from './server-fleet/fleet-tools';
import { createServerHandlers } from './server-fleet/server-handlers';
import { getLoginShellPath } from './servers/process/command-resolver';
import { reapRecordedLeftovers } from './servers/process/process-reaper';
import { createLogArea, createLogHandlers } from './logs';
import { createOAuthArea } from './oauth';
import { createPromptsArea } from './prompts/prompts-area';
import { createResourcesArea } from './resources/resources-area';
import { createRootsArea } from './roots/roots-area';
import { redactValue } from './audit/redact';
import { createSamplingArea } from './sampling/sampling-area';
import type { ConnectionPlugin } from './server-fleet/connection-plugins';
import { createSettingsHandlers } from './settings/settings-handlers';
import { SettingsRepository } from './settings/settings-repository';
import { openDatabase } from './store/database';
import type { ToolRouter } from './tools/tool-router';
import { createToolsArea } from './tools/tools-area';

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
   * Reaps server processes a killed Patchbay left behind, then starts every enabled server
   * concurrently. Call it after the first paint; it returns before any server is ready.
   */
  startServers(): Promise<void>;
  /** Ordered shutdown: stop every server (in parallel), stop emitting, close the database. Safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Composition root of the core: opens the database, builds the repositories and services, and wires
 * them to the contract's handlers. Throws (before anything else starts) when the database cannot be
 * opened, e.g. because a newer Patchbay wrote it.
 */
export function createHost(ports: HostPorts): Host {
  const clock = ports.clock ?? systemClock;
  const { db, status } = openDatabase(ports.dataDir, { nativeBinding: ports.sqliteNativeBinding, now: clock.now });
  const events = new HostEventBus();
  const settings = new SettingsRepository(db);
  const repo = new ServerConfigRepository(db);
  const secrets = ports.secrets ?? new KeyFileSecretBox(ports.dataDir);
  const processStore = new SqliteLiveProcessStore(db);
  // Each host area that talks to servers (logs, roots, sampling…) adds its plugin here.
  const plugins: ConnectionPlugin[] = [];
  const roots = createRootsArea({
    db,
    events,
    clock,
    serverName: (id) => repo.get(id)?.name,
    restartServer: (id) => void fleet.start(id).catch(() => undefined),
    pickFolder: ports.pickFolder,
    timings: ports.roots,
  });
  plugins.push(roots.plugin);
  const logs = createLogArea({ db, events, clock, pidOf: (id) => fleet.connection(id)?.pid });
  plugins.push(logs.plugin);
  // OAuth for remote servers: tokens sealed in SQLite, sign-in in the system browser (or a web-mode tab).
  const oauth = createOAuthArea({
    db,
    secrets,
    clock,
    openExternal: ports.openExternal,
    clientMetadataUrl: () => settings.read().oauthClientMetadataUrl || undefined,
    preregisteredClient: async (serverId) => {
      const server = repo.get(serverId);
      if (!server?.oauthClientId) return undefined;
      const clientSecret = server.oauthClientSecret ? await secrets.open(server.oauthClientSecret) : undefined;
      return { clientId: server.oauthClientId, ...(clientSecret ? { clientSecret } : {}) };
    },
  });
  const fleet = new ServerFleet({
    repo,
    secrets,
    processStore,
    events,
    clock,
    connectionDefaults: ports.connectionDefaults,
    plugins,
    // A server's last stderr lines and failure reasons reach the renderer redacted, like its logs.
    redact: (serverId, text) => logs.service.redactorFor(serverId).redact(text),
    remoteAuth: oauth.source,
  });
  oauth.attach(fleet, (id) => fleet.viewById(id));
  // Tools and consent: the router every tool call goes through (user runs and model calls alike).
  const tools = createToolsArea({ db, connection: (id) => fleet.connection(id), repo, secrets, events, clock });
  plugins.push(tools.plugin);
  // Resources, prompts and completion: lists from the host's copy, audited reads and prompt uses, followed resources.
  const serverName = (id: string) => repo.get(id)?.name;
  const resources = createResourcesArea({ db, events, clock, connection: (id) => fleet.connection(id), serverName });
  plugins.push(resources.plugin);
  const prompts = createPromptsArea({ connection: (id) => fleet.connection(id), serverName, audit: resources.audit, clock });
  const chat = createChatArea({
    db,
    mode: ports.mode,
    secrets,
    env: process.env,
    settings: () => settings.read(),
    events,
    clock,
    // Every model-initiated call goes through the tool router: standing decisions, the consent dialog, the audit trail.
    toolbox: { list: (serverIds) => listFleetTools(fleet, serverIds), call: (request) => tools.router.callToolWithConsent(request) },
    // What the user attaches or chooses from servers, read and audited by the resources and prompts areas.
    context: {
      readForAttachment: async (serverId, uri) => {
        const read = await resources.reader.fetch(serverId, uri, 'read', 'for a chat attachment');
        const name = fleet.connection(serverId)?.catalog.resources.find((r) => r.uri === uri)?.name;
        return { ...read, ...(name ? { name } : {}) };
      },
      heldPrompt: (useId) => prompts.uses.get(useId),
      releasePrompt: (useId) => prompts.uses.release(useId),
      recordUse: (use) => resources.audit.record({ ...use, outcome: 'ok', at: clock.now().toISOString() }),
    },
  });
  // Sampling and elicitation: server requests answered through the chat's provider, with the user in the loop.
  const sampling = createSamplingArea({
    db,
    events,
    clock,
    provider: chat.provider,
    defaultModel: () => settings.read().defaultModel,
    runningCallFor: (serverId) => {
      const call = tools.router
        .runningCalls()
        .filter((c) => c.serverId === serverId)
        .at(-1);
      return call ? { callId: call.callId, tool: call.tool } : undefined;
    },
    redactJson: (serverId, value) => JSON.stringify(redactValue(value, logs.service.redactorFor(serverId))),
  });
  plugins.push(sampling.plugin);

  const info: HostInfo = {
    appName: 'Patchbay',
    version: ports.appVersion,
    mode: ports.mode,
    dataDir: ports.dataDir,
    platform: `${process.platform}-${process.arch}`,
    runtime: process.versions.electron ? `Electron ${process.versions.electron}` : `Node ${process.versions.node}`,
    database: status,
    startedAt: clock.now().toISOString(),
  };

  const handlers: HostHandlers = {
    getSnapshot: async (): Promise<HostSnapshot> => ({
      info,
      settings: settings.read(),
      servers: fleet.list(),
      roots: roots.snapshot(),
      chat: chat.snapshot(),
      ...tools.snapshot(),
      logs: logs.snapshot(),
      sampling: sampling.snapshot(),
      resources: resources.snapshot(),
    }),
    ...createSettingsHandlers(settings, events, clock),
    ...createServerHandlers({ repo, fleet, secrets, events, clock, dataDir: ports.dataDir }),
    ...oauth.handlers,
    ...roots.handlers,
    ...chat.handlers,
    ...tools.handlers,
    ...sampling.handlers,
    ...resources.handlers,
    ...prompts.handlers,
    ...createLogHandlers({ logs: logs.service, plugin: logs.plugin, fleet, events, clock, info }),
  };

  let disposed = false;
  return {
    handlers,
    events,
    info,
    tools: tools.router,
    async startServers() {
      // Warm the login-shell PATH lookup (~100 ms) while leftovers are reaped, not before the first spawn.
      void getLoginShellPath().catch(() => undefined);
      await reapRecordedLeftovers(processStore);
      if (!disposed) fleet.startAllEnabled();
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      // Open "Share folders" questions settle as "nothing shared" before the servers go.
      roots.dispose();
      // Open sampling/elicitation requests are answered (rejected / cancelled) while servers still run.
      sampling.dispose();
      // Running chat turns stop (stream aborted, tool calls cancelled) while their servers still run.
      await chat.dispose();
      // Pending consent requests are denied and running tool calls cancelled (audited) while servers still run.
      await tools.dispose();
      // 2026-era update streams close while their servers still run.
      await resources.dispose();
      // Pending sign-ins end (their loopback listener closes) before the servers stop.
      await oauth.dispose();
      await fleet.dispose();
      // After the servers stopped (their last Host entries are in), before the database closes.
      logs.dispose();
      events.clear();
      db.close();
    },
  };
}
