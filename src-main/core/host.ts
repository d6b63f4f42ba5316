import process from 'node:process';
import type { HostHandlers } from '@contract';
import { disposeInReverse, mergeHandlers, mergeSnapshots, pluginsOf, type HostArea } from './area';
import { AppArea } from './app/app-area';
import { describeHost } from './app/host-info';
import { createChatArea } from './chat/chat-area';
import { createLlmArea } from './llm/llm-area';
import { systemClock } from './clock';
import type { Host, HostPorts } from './ports';
import { openFoundation } from './host-foundation';
import { KeyFileSecretBox } from './secrets/key-file-secret-box';
import { ServerConfigRepository } from './server-config/server-config-repository';
import { createFleetArea } from './server-fleet/fleet-area';
import { InstructionPrefs } from './server-instructions/instruction-prefs';
import { createInstructionsSource } from './server-instructions/instructions-source';
import { commandFinder, loginShellPathFor } from './servers/process/command-resolver';
import { createLogArea, createLogHandlers } from './logs';
import { createOAuthArea, storedSignInSettings } from './oauth';
import { createPromptsArea } from './prompts/prompts-area';
import { createResourcesArea } from './resources/resources-area';
import { createQuestionHandlers } from './questions/question-handlers';
import { QuestionQueue } from './questions/question-queue';
import { ContentReview } from './guard/scanner/content-review';
import { ContentScanner } from './guard/scanner/content-scanner';
import { createRootsArea } from './roots/roots-area';
import { ServerSandboxes } from './sandbox/server-sandboxes';
import { sandboxSupport } from './servers/sandbox/sandbox-support';
import { redactValue } from './audit/redact';
import { createSamplingArea } from './sampling/sampling-area';
import type { ConnectionPlugin } from './server-fleet/connection-plugins';
import { createSettingsArea } from './settings/settings-area';
import { createBackupHandlers } from './backup/backup-area';
import { createBundleArea } from './bundles/bundle-area';
import { createInstallHandlers } from './install/install-area';
import { createRegistryArea } from './registry/registry-area';
import { UploadSessions } from './uploads/upload-sessions';
import { createToolsArea } from './tools/tools-area';
import { createTasksArea } from './tasks/tasks-area';
import { createToolOffersArea } from './tool-offers/tool-offers-area';
import { createMcpAppsArea } from './mcp-apps/apps-area';

export type { Host } from './ports';

/**
 * Composition root of the core: opens the database, makes every area (in the order they need each
 * other), then lists them once — the list is the order of their life (see area.ts). Throws (before
 * anything else starts) when the database cannot be opened, e.g. because a newer Patchbay wrote it.
 */
export function createHost(ports: HostPorts): Host {
  const clock = ports.clock ?? systemClock;
  const { db, status, events, appLog, areas: foundation } = openFoundation(ports, clock, (id) => serverName(id));
  /** What nearly every area is made with. */
  const core = { db, events, clock };
  // Where commands are looked up (servers, their log entries, bundles): one PATH for all of them.
  const loginShellPath = ports.connectionDefaults?.loginShellPath ?? loginShellPathFor(ports.mode);
  const secrets = ports.secrets ?? new KeyFileSecretBox(ports.dataDir);
  // Model providers (Anthropic, OpenAI-compatible): keys sealed, model lists cached; the router
  // resolves each conversation's model (and sampling's choice) to its provider.
  const llm = createLlmArea({
    ...core,
    ...{ mode: ports.mode, secrets, env: process.env, presets: ports.providerPresets },
    defaults: () => settings.defaultModel(),
    onProviderRemoved: (id) => chat.service.forgetProvider(id),
    resetDefault: (choice) => settings.setDefaultModel(choice),
    onQuickFieldChanged: () => settings.announce(),
  });
  // The Anthropic base URL setting is the Anthropic provider's base URL (one place, two ways to edit it).
  const settings = createSettingsArea({ ...core, linked: llm.linkedSettings });
  const repo = new ServerConfigRepository(db);
  const serverName = (id: string) => repo.get(id)?.name;
  const app = new AppArea({ mode: ports.mode, events, log: appLog });
  // Getting servers: uploads (bundles, backups), MCP bundles, the registry, install links.
  const uploads = new UploadSessions(ports.dataDir, clock);
  const bundles = createBundleArea({
    ...{ ...core, dataDir: ports.dataDir, secrets, repo, uploads, limits: ports.bundleLimits },
    openRequest: (id) => app.openRequest(id),
    findCommand: ports.findCommand ?? commandFinder(loginShellPath),
  });
  const registry = createRegistryArea({ repo, registryUrl: () => settings.read().registryUrl });
  // The one queue of questions to the user (consent, sampling, elicitation, "Share folders"): the areas ask, the renderer answers.
  const questions = new QuestionQueue({ events, clock });
  // The content scanner's local rules (descriptions, instructions, results): see guard/scanner/.
  const scanner = new ContentScanner();
  const roots = createRootsArea({
    ...{ ...core, questions, serverName, pickFolder: ports.pickFolder, timings: ports.roots },
    restartServer: (id) => void fleet.start(id).catch(() => undefined),
    sandboxedFolders: (id) => sandboxes.foldersOf(id),
  });
  const logs = createLogArea({ ...core, loginShellPath, pidOf: (id) => connection(id)?.pid });
  // Sandboxes: a sandboxed server sees the system, its own install location and the folders shared with it.
  const sandboxes = new ServerSandboxes({
    ...{ dataDir: ports.dataDir, support: sandboxSupport },
    sharedFolders: (id) => roots.sharedFolders(id),
    log: (id, level, text) => logs.plugin.recordHostEvent(id, 'sandbox', level, text),
  });
  // OAuth for remote servers: tokens sealed in SQLite, sign-in in the system browser (or a web-mode tab).
  const oauth = createOAuthArea({
    ...{ ...core, secrets, openExternal: ports.openExternal },
    clientMetadataUrl: () => settings.read().oauthClientMetadataUrl || undefined,
    signInSettings: storedSignInSettings(
      (id) => repo.get(id),
      (sealed) => secrets.open(sealed),
    ),
  });
  // The areas' connection plugins, filled from the list below before any server starts.
  const plugins: ConnectionPlugin[] = [];
  const servers = createFleetArea({
    ...{ ...core, repo, secrets, dataDir: ports.dataDir, plugins, sandboxes },
    connectionDefaults: { loginShellPath, ...ports.connectionDefaults },
    // A server's last stderr lines and failure reasons reach the renderer redacted, like its logs.
    redact: (serverId, text) => logs.service.redactorFor(serverId).redact(text),
    ...{ remoteAuth: oauth.source, launchOverride: bundles.launchOverride },
    ...{ bundleAvailable: bundles.isInstalledAndFree, onRemoved: bundles.onServerRemoved },
    onImported: (text, result) => toolOffers.importSets(text, result),
  });
  const fleet = servers.fleet;
  const connection = (id: string) => fleet.connection(id);
  const ready = (id: string, toDo: string) => fleet.ready(id, toDo);
  oauth.attach(fleet, (id) => fleet.viewById(id));
  // Tasks: tool calls run as tasks (polled, cancellable, recorded) and server requests Patchbay runs as tasks.
  const tasks = createTasksArea({
    ...{ ...core, connection },
    cancelCall: (callId) => tools.router.cancel(callId),
    log: (serverId, text) => logs.plugin.recordHostEvent(serverId, 'task', 'info', text),
  });
  // Tools and consent: the router every tool call goes through (user runs, model and app calls alike).
  const tools = createToolsArea({
    ...{ ...core, questions, connection, repo, secrets, tasks: tasks.toolTasks },
    keepTaskOutcome: (outcome) => tasks.results.keep(outcome),
  });
  // Resources, prompts and completion: lists from the host's copy, audited reads and prompt uses, followed resources.
  const resources = createResourcesArea({ ...core, connection, ready, serverName });
  const prompts = createPromptsArea({ connection, ready, audit: resources.audit, clock });
  // MCP Apps: tools' interactive views on an origin of their own; what they ask passes the model's rules.
  const apps = createMcpAppsArea({ clock, connection, ready, router: tools.router, reader: resources.reader });
  // Server instructions: what each Ready server said in its handshake, sent to the model unless switched off.
  // What servers send back is scanned before the model reads it; Settings › Flagged content decides what a flag does.
  const contentReview = new ContentReview({ scanner, questions, now: clock.now, mode: () => settings.read().flaggedContent });
  const instructions = createInstructionsSource({
    ...{ prefs: new InstructionPrefs(db), state: (id) => connection(id)?.state, serverName },
    scan: (text) => scanner.scanShort(text),
  });
  const chat = createChatArea({
    ...{ ...core, instructions, tokenizer: ports.tokenizer, llm },
    serverExists: (id) => repo.get(id) !== undefined,
    settings: () => settings.read(),
    // Every model-initiated call goes through the tool router: standing decisions, the consent dialog, the audit trail.
    // Only tools the user offers to the model (and never those a server keeps for its app): see tool-offers/.
    toolbox: {
      list: (serverIds, toolSetId) => toolOffers.forModel(serverIds, toolSetId),
      call: (request) => tools.router.callToolWithConsent(request),
      instructions: (serverIds) => instructions.forServers(serverIds),
      review: (block, context) => contentReview.reviewResult(block, context),
    },
    // What the user attaches or chooses from servers, read and audited by the resources and prompts areas.
    context: {
      readForAttachment: (serverId, uri) => resources.readForAttachment(serverId, uri),
      heldPrompt: (useId) => prompts.uses.get(useId),
      releasePrompt: (useId) => prompts.uses.release(useId),
      recordUse: (use) => resources.recordUse(use),
      appContexts: (conversationId) => apps.takeModelContexts(conversationId),
    },
  });
  // Per-tool control and tool sets: what the user offers to the model, recorded at each tool's first sight.
  const toolOffers = createToolOffersArea({ ...core, fleet, serverName, settings: settings.repo, conversations: chat.service });
  // Sampling and elicitation: server requests answered through any configured provider, with the user in the loop.
  const sampling = createSamplingArea({
    ...{ ...core, questions, router: llm.router },
    models: () => llm.models(),
    runningCallFor: (serverId) => tools.runningCallFor(serverId),
    redactJson: (serverId, value) => JSON.stringify(redactValue(value, logs.service.redactorFor(serverId))),
  });
  const install = createInstallHandlers({
    ...{ repo, fleet, secrets, clock },
    kinds: { registry: registry.installer, bundle: bundles.installer },
    dismissOpenRequest: (id) => app.handlers.dismissOpenRequest({ id }),
  });
  const backup = createBackupHandlers({
    ...{ db, dataDir: ports.dataDir, appVersion: ports.appVersion, clock, repo, uploads, relaunch: ports.relaunch },
    ...{ nativeBinding: ports.sqliteNativeBinding, bundleVersion: bundles.version },
    toolSets: () => toolOffers.exportSets(),
  });
  const info = describeHost({ ...ports, version: ports.appVersion, database: status, startedAt: clock.now(), log: appLog });
  const logViews = createLogHandlers({ logs: logs.service, plugin: logs.plugin, fleet, events, clock, info, appLog });

  // Every area, in the order of its life: handlers, snapshot parts and connection plugins merge in
  // this order, areas start in it, and dispose in reverse. So what the servers use (logs, bundles,
  // sandboxes) is listed before `servers` and closes after them; what works with running servers (open
  // questions, calls, turns, streams, sign-ins) is listed after and ends while they still run — roots
  // last, as its open questions settle first; the foundation (the database) closes last. One line per area.
  const areas = [
    ...foundation,
    settings,
    app,
    logs,
    { name: 'log views', handlers: logViews },
    uploads,
    bundles,
    registry,
    sandboxes,
    servers,
    { name: 'install', handlers: install },
    { name: 'backup', handlers: backup },
    oauth,
    { name: 'questions', handlers: createQuestionHandlers(questions), snapshot: () => ({ questions: questions.list() }) },
    tasks,
    tools,
    resources,
    apps,
    prompts,
    llm,
    toolOffers,
    chat,
    sampling,
    roots,
  ] as const satisfies readonly HostArea[];
  plugins.push(...pluginsOf(areas));
  const handlers: HostHandlers = { getSnapshot: async () => ({ info, ...mergeSnapshots(areas) }), ...mergeHandlers(areas) };

  // Stored keys are opened once (one that cannot be opened is reported) and unlisted providers asked for their models.
  for (const area of areas as readonly HostArea[]) area.start?.();
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
      await servers.reapLeftovers();
      if (!disposed) fleet.startAllEnabled();
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await disposeInReverse(areas);
    },
  };
}
