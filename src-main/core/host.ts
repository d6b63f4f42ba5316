import path from 'node:path';
import process from 'node:process';
import { DEFAULT_SETTINGS, PRIMARY_PROVIDER_ID, type HostHandlers, type HostInfo, type HostSnapshot } from '../../src-preload/contract';
import { AppArea } from './app/app-area';
import { createChatArea } from './chat/chat-area';
import { createLlmArea } from './llm/llm-area';
import { HostEventBus } from './events';
import { systemClock } from './clock';
import type { HostPorts } from './ports';
import { KeyFileSecretBox } from './secrets/key-file-secret-box';
import { ServerConfigRepository } from './server-config/server-config-repository';
import { SqliteLiveProcessStore } from './server-fleet/live-process-store';
import { ServerFleet } from './server-fleet/server-fleet';
import { InstructionPrefs } from './server-instructions/instruction-prefs';
import { createInstructionsSource } from './server-instructions/instructions-source';
import { createServerHandlers } from './server-fleet/server-handlers';
import { loginShellPathFor } from './servers/process/command-resolver';
import { reapRecordedLeftovers } from './servers/process/process-reaper';
import { createLogArea, createLogHandlers } from './logs';
import { AppLog } from './logs/app-log';
import { createOAuthArea, openSignInSettings } from './oauth';
import { createPromptsArea } from './prompts/prompts-area';
import { createResourcesArea } from './resources/resources-area';
import { createRootsArea } from './roots/roots-area';
import { ServerSandboxes } from './sandbox/server-sandboxes';
import { publicSupport, sandboxSupport } from './servers/sandbox/sandbox-support';
import { redactValue } from './audit/redact';
import { createSamplingArea } from './sampling/sampling-area';
import type { ConnectionPlugin } from './server-fleet/connection-plugins';
import { createSettingsHandlers } from './settings/settings-handlers';
import { SettingsRepository } from './settings/settings-repository';
import { DATABASE_FILE, openDatabase } from './store/database';
import { WalCheckpointer } from './store/wal-checkpointer';
import { applyPendingRestore } from './backup/restore-backup';
import { createBackupHandlers } from './backup/backup-area';
import { createBundleArea } from './bundles/bundle-area';
import { clearScratch } from './data-dir';
import { createInstallHandlers } from './install/install-area';
import { createLinkInstaller } from './install/install-link';
import { createRegistryArea } from './registry/registry-area';
import { resolveCommand } from './servers/process/command-resolver';
import { UploadSessions } from './uploads/upload-sessions';
import type { ToolRouter } from './tools/tool-router';
import { createToolsArea } from './tools/tools-area';
import { createTasksArea } from './tasks/tasks-area';
import { createToolOffersArea } from './tool-offers/tool-offers-area';
import { createMcpAppsArea } from './mcp-apps/apps-area';
import type { AppSandboxServer } from './mcp-apps/sandbox-server';

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
   * serving the sandbox proxy. Web mode and the Electron glue say which renderer origin may frame it.
   */
  readonly appSandbox: AppSandboxServer;
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
  // A backup staged for restoring is swapped in before the database opens; scratch files of the last run go.
  const restored = applyPendingRestore(ports.dataDir, clock.now());
  clearScratch(ports.dataDir);
  const { db, status } = openDatabase(ports.dataDir, { nativeBinding: ports.sqliteNativeBinding, now: clock.now });
  const events = new HostEventBus();
  // Where commands are looked up (servers, their log entries, bundles): one PATH for all of them.
  const loginShellPath = ports.connectionDefaults?.loginShellPath ?? loginShellPathFor(ports.mode);
  const secrets = ports.secrets ?? new KeyFileSecretBox(ports.dataDir);
  // Model providers (Anthropic, OpenAI-compatible): keys sealed, model lists cached; the router
  // resolves each conversation's model (and sampling's choice) to its provider.
  const llm = createLlmArea({
    db,
    mode: ports.mode,
    secrets,
    env: process.env,
    events,
    clock,
    defaults: () => {
      const { defaultProviderId, defaultModel } = settings.read();
      return { providerId: defaultProviderId, model: defaultModel };
    },
    onProviderRemoved: (id) => {
      chat.service.forgetProvider(id);
      if (settings.read().defaultProviderId !== id) return;
      const fallback = llm.registry.view(PRIMARY_PROVIDER_ID).models[0]?.id ?? DEFAULT_SETTINGS.defaultModel;
      events.emit('settingsChanged', settings.write({ defaultProviderId: PRIMARY_PROVIDER_ID, defaultModel: fallback }, clock.now()));
    },
    onQuickFieldChanged: () => events.emit('settingsChanged', settings.read()),
    presets: ports.providerPresets,
  });
  // The Anthropic base URL setting is the Anthropic provider's base URL (one place, two ways to edit it).
  const settings = new SettingsRepository(db, llm.linkedSettings);
  const repo = new ServerConfigRepository(db);
  const processStore = new SqliteLiveProcessStore(db);
  // The app's own log file: every server's Host stream and the app's events, from the first moment on.
  const appLog = new AppLog({ dataDir: ports.dataDir, clock, serverName: (id) => repo.get(id)?.name });
  const stopFollowing = appLog.follow(events);
  const app = new AppArea({ mode: ports.mode, events, log: appLog });
  // Checkpoints of the WAL happen on a worker, never inside a commit on this thread (see wal-checkpointer.ts).
  const checkpointer = new WalCheckpointer(db, {
    file: path.join(ports.dataDir, DATABASE_FILE),
    nativeBinding: ports.sqliteNativeBinding,
    onFallback: (reason) => appLog.write('warning', 'app', `Database checkpoints run on the main thread again: ${reason}`),
  });
  if (restored) {
    appLog.write('info', 'app', `Restored the backup ${restored.from}; the data it replaced is in ${restored.previousDataIn}`);
  }
  // Getting servers: uploads (bundles, backups), MCP bundles, the registry, install links.
  const uploads = new UploadSessions(ports.dataDir, clock);
  const bundles = createBundleArea({
    db,
    dataDir: ports.dataDir,
    secrets,
    clock,
    repo,
    uploads,
    limits: ports.bundleLimits,
    openRequestPath: (id) => {
      const request = app.openRequest(id);
      return request?.kind === 'install-bundle' ? request.path : undefined;
    },
    findCommand:
      ports.findCommand ??
      ((name) =>
        resolveCommand(name, { inheritedPath: process.env.PATH, loginShellPath }).then(
          (found) => found.file,
          () => undefined,
        )),
  });
  const registry = createRegistryArea({ repo, registryUrl: () => settings.read().registryUrl });
  // Each host area that talks to servers (logs, roots, sampling…) adds its plugin here.
  const plugins: ConnectionPlugin[] = [];
  const roots = createRootsArea({
    db,
    events,
    clock,
    serverName: (id) => repo.get(id)?.name,
    restartServer: (id) => void fleet.start(id).catch(() => undefined),
    sandboxedFolders: (id) => sandboxes.foldersOf(id),
    pickFolder: ports.pickFolder,
    timings: ports.roots,
  });
  plugins.push(roots.plugin);
  const logs = createLogArea({ db, events, clock, loginShellPath, pidOf: (id) => fleet.connection(id)?.pid });
  plugins.push(logs.plugin);
  // Sandboxes: a sandboxed server sees the system, its own install location and the folders shared with it.
  const sandboxes = new ServerSandboxes({
    dataDir: ports.dataDir,
    support: sandboxSupport,
    sharedFolders: (id) => roots.sharedFolders(id),
    log: (id, level, text) => logs.plugin.recordHostEvent(id, 'sandbox', level, text),
  });
  // It reads denied accesses out of each sandboxed server's stderr, for the Host log.
  plugins.push(sandboxes.stderrObserver);
  // OAuth for remote servers: tokens sealed in SQLite, sign-in in the system browser (or a web-mode tab).
  const oauth = createOAuthArea({
    db,
    secrets,
    clock,
    openExternal: ports.openExternal,
    clientMetadataUrl: () => settings.read().oauthClientMetadataUrl || undefined,
    signInSettings: async (serverId) => {
      const server = repo.get(serverId);
      return server ? openSignInSettings(server, (sealed) => secrets.open(sealed)) : { mode: 'browser' };
    },
  });
  const fleet = new ServerFleet({
    repo,
    secrets,
    processStore,
    events,
    clock,
    connectionDefaults: { loginShellPath, ...ports.connectionDefaults },
    plugins,
    // A server's last stderr lines and failure reasons reach the renderer redacted, like its logs.
    redact: (serverId, text) => logs.service.redactorFor(serverId).redact(text),
    remoteAuth: oauth.source,
    launchOverride: bundles.launchOverride,
    sandboxes,
  });
  oauth.attach(fleet, (id) => fleet.viewById(id));
  // Tasks: tool calls run as tasks (polled, cancellable, recorded) and server requests Patchbay runs as tasks.
  const tasks = createTasksArea({
    db,
    events,
    clock,
    connection: (id) => fleet.connection(id),
    cancelCall: (callId) => tools.router.cancel(callId),
    log: (serverId, text) => logs.plugin.recordHostEvent(serverId, 'task', 'info', text),
  });
  plugins.push(tasks.plugin);
  // Tools and consent: the router every tool call goes through (user runs, model and app calls alike).
  const tools = createToolsArea({
    db,
    connection: (id) => fleet.connection(id),
    repo,
    secrets,
    events,
    clock,
    tasks: tasks.toolTasks,
    keepTaskOutcome: (outcome) => tasks.results.keep(outcome),
  });
  plugins.push(tools.plugin);
  // Resources, prompts and completion: lists from the host's copy, audited reads and prompt uses, followed resources.
  const serverName = (id: string) => repo.get(id)?.name;
  const resources = createResourcesArea({ db, events, clock, connection: (id) => fleet.connection(id), serverName });
  plugins.push(resources.plugin);
  const prompts = createPromptsArea({ connection: (id) => fleet.connection(id), serverName, audit: resources.audit, clock });
  // MCP Apps: tools' interactive views on an origin of their own; what they ask passes the model's rules.
  const apps = createMcpAppsArea({ clock, connection: (id) => fleet.connection(id), router: tools.router, reader: resources.reader });
  plugins.push(apps.plugin);
  // Server instructions: what each Ready server said in its handshake, sent to the model unless switched off.
  const instructions = createInstructionsSource({
    prefs: new InstructionPrefs(db),
    state: (id) => fleet.connection(id)?.state,
    serverName,
  });
  const chat = createChatArea({
    db,
    instructions,
    serverExists: (id) => repo.get(id) !== undefined,
    tokenizer: ports.tokenizer,
    llm,
    settings: () => settings.read(),
    events,
    clock,
    // Every model-initiated call goes through the tool router: standing decisions, the consent dialog, the audit trail.
    // Only tools the user offers to the model (and never those a server keeps for its app): see tool-offers/.
    toolbox: {
      list: (serverIds, toolSetId) => toolOffers.forModel(serverIds, toolSetId),
      call: (request) => tools.router.callToolWithConsent(request),
      instructions: (serverIds) => instructions.forServers(serverIds),
    },
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
      appContexts: (conversationId) => apps.takeModelContexts(conversationId),
    },
  });
  // Per-tool control and tool sets: what the user offers to the model, recorded at each tool's first sight.
  const toolOffers = createToolOffersArea({ db, events, clock, fleet, serverName, settings, conversations: chat.service });
  plugins.push(toolOffers.plugin);
  // Sampling and elicitation: server requests answered through any configured provider, with the user in the loop.
  const sampling = createSamplingArea({
    db,
    events,
    clock,
    router: llm.router,
    models: () => llm.models(),
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
    logFile: appLog.path,
    sandbox: publicSupport(sandboxSupport()),
  };
  appLog.write(
    'info',
    'app',
    `Patchbay ${info.version} started (${info.mode} mode, ${info.runtime}, ${info.platform}); data in ${info.dataDir}; database ${status.state}, schema ${status.schemaVersion}`,
  );

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
      app: app.snapshot(),
      providers: llm.snapshot(),
      resources: resources.snapshot(),
      tasks: tasks.snapshot(),
      toolOffers: toolOffers.snapshot(),
    }),
    ...createSettingsHandlers(settings, events, clock),
    ...createServerHandlers({
      repo,
      fleet,
      secrets,
      events,
      clock,
      dataDir: ports.dataDir,
      bundleAvailable: bundles.isInstalledAndFree,
      onRemoved: bundles.onServerRemoved,
      onImported: (text, result) => toolOffers.importSets(text, result),
    }),
    ...oauth.handlers,
    ...roots.handlers,
    ...chat.handlers,
    ...toolOffers.handlers,
    ...tools.handlers,
    ...sampling.handlers,
    ...llm.handlers,
    ...createLogHandlers({ logs: logs.service, plugin: logs.plugin, fleet, events, clock, info, appLog }),
    ...app.handlers,
    ...createInstallHandlers({
      repo,
      fleet,
      secrets,
      clock,
      kinds: { registry: registry.installer, link: createLinkInstaller(repo), bundle: bundles.installer },
      dismissOpenRequest: (id) => app.handlers.dismissOpenRequest({ id }),
      sandboxSupported: () => sandboxSupport().supported,
    }),
    ...registry.handlers,
    ...bundles.handlers,
    ...uploads.handlers,
    ...createBackupHandlers({
      db,
      dataDir: ports.dataDir,
      appVersion: ports.appVersion,
      clock,
      repo,
      uploads,
      nativeBinding: ports.sqliteNativeBinding,
      relaunch: ports.relaunch,
      bundleVersion: bundles.version,
      toolSets: () => toolOffers.exportSets(),
    }),
    ...resources.handlers,
    ...prompts.handlers,
    ...tasks.handlers,
    ...apps.handlers,
  };

  // Stored keys are opened once (one that cannot be opened is reported) and unlisted providers asked for their models.
  llm.start();
  // The login-shell PATH (an interactive login shell: 0.1–0.5 s) is read now, while the window loads,
  // not when the first server spawns: the desktop app starts the servers once the window is ready.
  void loginShellPath().catch(() => undefined);

  let disposed = false;
  return {
    handlers,
    events,
    info,
    tools: tools.router,
    app,
    appSandbox: apps.sandbox,
    async startServers() {
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
      toolOffers.dispose();
      // Model lists still being asked for are abandoned before the database closes.
      llm.dispose();
      // Pending consent requests are denied and running tool calls cancelled (audited) while servers still run.
      await tools.dispose();
      // Tasks servers run for us that no call waits for, and requests we run as tasks, are cancelled (logged).
      await tasks.dispose();
      // The app origin's listener closes.
      await apps.dispose();
      // 2026-era update streams close while their servers still run.
      await resources.dispose();
      // Pending sign-ins end (their loopback listener closes) before the servers stop.
      await oauth.dispose();
      await fleet.dispose();
      // After the servers stopped: their "Only these hosts" proxies close.
      sandboxes.dispose();
      bundles.dispose();
      uploads.dispose();
      // After the servers stopped (their last Host entries are in), before the database closes.
      logs.dispose();
      await checkpointer.close();
      appLog.write('info', 'app', 'Stopped: every server stopped, the database closes');
      stopFollowing();
      appLog.close();
      events.clear();
      db.close();
    },
  };
}
