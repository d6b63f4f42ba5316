import process from 'node:process';
import type { HostSnapshot } from '@contract';
import { AreaList } from './area';
import { createAppArea } from './app/app-area';
import { describeHost } from './app/host-info';
import { createChatArea } from './chat/chat-area';
import { createContextMeterArea } from './context-meter/context-meter-area';
import { createLlmArea, createProviderRegistry } from './llm/llm-area';
import { systemClock } from './clock';
import type { Host, HostPorts } from './ports';
import { openFoundation } from './host-foundation';
import { KeyFileSecretBox } from './secrets/key-file-secret-box';
import { createFleetArea } from './server-fleet/fleet-area';
import { InstructionPrefs } from './server-instructions/instruction-prefs';
import { createInstructionsSource } from './server-instructions/instructions-source';
import { commandFinder, loginShellPathFor } from './servers/process/command-resolver';
import { createLogArea, createLogViewsArea } from './logs';
import { createOAuthArea, createOAuthSource, storedSignInSettings } from './oauth';
import { createPromptsArea } from './prompts/prompts-area';
import { createResourcesArea } from './resources/resources-area';
import { createQuestionsArea } from './questions/question-handlers';
import { createRootsArea, createSharedFolders } from './roots/roots-area';
import { createSandboxArea } from './sandbox/sandbox-area';
import { sandboxSupport } from './sandbox/sandbox-support';
import { openSandboxOffer } from './sandbox/sandbox-offer';
import { redactValue } from './audit/redact';
import { createSamplingArea } from './sampling/sampling-area';
import { createSettingsArea } from './settings/settings-area';
import { createBackupArea } from './backup/backup-area';
import { createBundleArea } from './bundles/bundle-area';
import { createInstallArea } from './install/install-area';
import { createRegistryArea } from './registry/registry-area';
import { createUploadsArea } from './uploads/upload-sessions';
import { createToolsArea } from './tools/tools-area';
import { createGuardArea } from './guard/guard-area';
import { createOrganisationArea } from './guard/policy/organisation-area';
import { createTasksArea } from './tasks/tasks-area';
import { createToolOffersArea } from './tool-offers/tool-offers-area';
import { createMcpAppsArea } from './mcp-apps/apps-area';
import { createTelemetryArea } from './telemetry/telemetry-area';
import { createSkillsArea } from './skills/skills-area';

export type { Host } from './ports';

/**
 * Composition root of the core: opens the foundation (the database), then makes every area, each from
 * what the areas made before it give, and adds it to the list as it is made: the order they are made
 * in is the order of their life (see area.ts). So what the servers use (logs, bundles, sandboxes, the
 * sign-in source) is made before `servers` and closes after them; what works with running servers
 * (sign-ins, open questions, calls, turns, streams) is made after and ends while they still run —
 * roots last, as its open questions settle first; the foundation closes last. Throws (before anything
 * else starts) when the database cannot be opened, e.g. because a newer Patchbay wrote it.
 *
 * Where two areas need each other, one is split (the provider registry before the settings, the
 * sign-in source and the shared folders before the fleet) or the earlier one offers a `when…` hook the
 * later one listens on as it is made (providers removed, servers imported, tool sets deleted); the
 * lint rule `no-use-before-define` on this file keeps it so.
 */
export function createHost(ports: HostPorts): Host {
  const clock = ports.clock ?? systemClock;
  const { db, status, events, appLog, repo, areas: foundation } = openFoundation(ports, clock);
  const areas = new AreaList();
  for (const area of foundation) areas.add(area);
  /** What nearly every area is made with. */
  const core = { db, events, clock };
  const serverName = (id: string) => repo.get(id)?.name;
  // Where commands are looked up (servers, their log entries, bundles): one PATH for all of them.
  const loginShellPath = ports.connectionDefaults?.loginShellPath ?? loginShellPathFor(ports.mode);
  const secrets = ports.secrets ?? new KeyFileSecretBox(ports.dataDir);
  // Model providers (Anthropic, OpenAI-compatible): keys sealed, model lists cached. The Anthropic base
  // URL setting is the Anthropic provider's base URL (one place, two ways to edit it), so the registry
  // comes before the settings, and the router (whose default is a setting) after them, in the llm area.
  const providers = createProviderRegistry({ ...core, mode: ports.mode, secrets, env: process.env });
  // Telemetry: the one observer (timelines; OpenTelemetry export once the user turns it on). Made
  // first so it lives longest: it sees every area's events and closes (flushing its spans) after them.
  areas.add(createTelemetryArea({ ...core, secrets, env: process.env, version: ports.appVersion }));
  const settings = areas.add(createSettingsArea({ ...core, linked: providers.linkedSettings }));
  const app = areas.add(createAppArea({ mode: ports.mode, events, log: appLog }));
  const logs = areas.add(createLogArea({ ...core, loginShellPath }));
  // Getting servers: uploads (bundles, backups), MCP bundles, the registry, install links.
  const uploads = areas.add(createUploadsArea({ dataDir: ports.dataDir, clock }));
  const bundles = areas.add(
    createBundleArea({
      ...{ ...core, dataDir: ports.dataDir, secrets, repo, uploads, limits: ports.bundleLimits },
      openRequest: (id) => app.openRequest(id),
      findCommand: ports.findCommand ?? commandFinder(loginShellPath),
    }),
  );
  const registry = areas.add(createRegistryArea({ repo, registryUrl: () => settings.read().registryUrl }));
  // Sandboxes: a sandboxed server sees the system, its own install location and the folders shared with
  // it (stored here; the roots area made last asks the user and tells the servers).
  const folders = createSharedFolders({ ...core, serverName });
  const sandboxes = areas.add(
    createSandboxArea({
      dataDir: ports.dataDir,
      sharedFolders: (id) => folders.service.sharedFolders(id),
      log: (id, level, text) => logs.plugin.recordHostEvent(id, 'sandbox', level, text),
    }),
  );
  // New local servers are sandboxed where a sandbox runs; those from before are offered the move once.
  const sandboxByDefault = () => ports.sandboxByDefault !== false && sandboxSupport().supported;
  openSandboxOffer({
    servers: () => repo.list(),
    read: () => settings.read().sandboxOffer,
    write: (offer) => settings.repo.write({ sandboxOffer: offer }, clock.now()),
    sandboxByDefault,
  });
  // OAuth for remote servers: tokens sealed in SQLite, sign-in in the system browser (or a web-mode tab).
  const signIns = createOAuthSource({
    ...{ ...core, secrets, openExternal: ports.openExternal },
    clientMetadataUrl: () => settings.read().oauthClientMetadataUrl || undefined,
    signInSettings: storedSignInSettings(
      (id) => repo.get(id),
      (sealed) => secrets.open(sealed),
    ),
  });
  // The organisation's managed-settings.json: which servers may be added and started, rules the user's cannot loosen.
  const organisation = areas.add(createOrganisationArea());
  // The fleet connects servers with the plugins of every area in the list (those made after it join
  // before the first server starts) and attaches itself to the sign-in source.
  const servers = areas.add(
    createFleetArea({
      ...{ ...core, repo, secrets, dataDir: ports.dataDir, plugins: areas.plugins, sandboxes, admission: organisation },
      connectionDefaults: { loginShellPath, ...ports.connectionDefaults },
      // A server's last stderr lines and failure reasons reach the renderer redacted, like its logs.
      redact: (serverId, text) => logs.service.redactorFor(serverId).redact(text),
      ...{ remoteAuth: signIns, launchOverride: bundles.launchOverride },
      ...{ bundleAvailable: bundles.isInstalledAndFree, onRemoved: bundles.onServerRemoved },
      sandboxByDefault,
    }),
  );
  const fleet = servers.fleet;
  const connection = (id: string) => fleet.connection(id);
  const ready = (id: string, toDo: string) => fleet.ready(id, toDo);
  const readyNow = (id: string) => fleet.readyNow(id);
  const info = describeHost({ ...ports, version: ports.appVersion, database: status, startedAt: clock.now(), log: appLog });
  areas.add(createLogViewsArea({ logs: logs.service, plugin: logs.plugin, fleet, events, clock, info, appLog }));
  areas.add(
    createInstallArea({
      ...{ repo, fleet, secrets, clock },
      kinds: { registry: registry.installer, bundle: bundles.installer },
      dismissOpenRequest: (id) => app.handlers.dismissOpenRequest({ id }),
    }),
  );
  areas.add(createOAuthArea({ source: signIns }));
  const questions = areas.add(createQuestionsArea({ events, clock })).queue;
  // Tasks: tool calls run as tasks (polled, cancellable, recorded) and server requests Patchbay runs as tasks.
  const tasks = areas.add(
    createTasksArea({
      ...{ ...core, connection },
      log: (serverId, text) => logs.plugin.recordHostEvent(serverId, 'task', 'info', text),
    }),
  );
  // The guard: rules on calls' arguments (the organisation's first), the three-way risk; the router asks
  // it first. It scans what servers send back, and Settings › Flagged content decides what a flag does.
  const guard = areas.add(
    createGuardArea({
      ...{ ...core, servers: repo, organisation, questions },
      tools: (id) => readyNow(id)?.catalog.tools,
      sharedFolders: async (id) => (await folders.service.sharedFolders(id)).map((folder) => folder.path),
      flaggedContent: () => settings.read().flaggedContent,
    }),
  );
  // Tools and consent: the router every tool call goes through (user runs, model and app calls alike).
  const tools = areas.add(
    createToolsArea({
      ...{ ...core, questions, connection, readyNow, repo, secrets, tasks: tasks.toolTasks },
      keepTaskOutcome: (outcome) => tasks.results.keep(outcome),
      guard: guard.guard,
      descriptionFlags: (tool) => guard.descriptionFlags.of(tool),
    }),
  );
  // Resources, prompts and completion: lists from the host's copy, audited reads and prompt uses, followed resources.
  const resources = areas.add(createResourcesArea({ ...core, connection, ready, readyNow, serverName }));
  // MCP Apps: tools' interactive views on an origin of their own; what they ask passes the model's rules.
  const apps = areas.add(createMcpAppsArea({ clock, connection, ready, router: tools.router, reader: resources.reader }));
  const prompts = areas.add(createPromptsArea({ connection, ready, readyNow, audit: resources.audit, clock }));
  const llm = areas.add(
    createLlmArea({
      ...{ registry: providers.registry, presets: ports.providerPresets },
      defaults: () => settings.defaultModel(),
      resetDefault: (choice) => settings.setDefaultModel(choice),
      onQuickFieldChanged: () => settings.announce(),
    }),
  );
  // Per-tool control and tool sets: what the user offers to the model, recorded at each tool's first sight.
  const toolOffers = areas.add(
    createToolOffersArea({
      ...{ ...core, fleet, serverName, settings: settings.repo, whenImported: servers.whenImported },
      descriptionFlags: (tool) => guard.descriptionFlags.of(tool),
    }),
  );
  areas.add(
    createBackupArea({
      ...{ db, dataDir: ports.dataDir, appVersion: ports.appVersion, clock, repo, uploads, relaunch: ports.relaunch },
      ...{ nativeBinding: ports.sqliteNativeBinding, bundleVersion: bundles.version },
      toolSets: () => toolOffers.exportSets(),
    }),
  );
  // Server instructions: what each Ready server said in its handshake, sent to the model unless switched off.
  const instructions = createInstructionsSource({
    ...{ prefs: new InstructionPrefs(db), readyNow, serverName },
    scan: (text) => guard.scanShort(text),
  });
  // Skills: servers' (listed when a server declaring the extension is Ready; files read only on load,
  // verified) and the local skills folder's; the chat offers the enabled ones through its load_skill tool.
  // The context meter's token counter: the skills count what loading one costs with it, the chat the meter.
  const meter = areas.add(createContextMeterArea({ tokenizer: ports.tokenizer }));
  const skills = areas.add(
    createSkillsArea({
      ...{ ...core, connection, folder: () => settings.read().skillsFolder },
      countTokens: (text) => meter.counter.count(text),
      knownTokens: (text) => meter.counter.known(text),
    }),
  );
  areas.add(
    createChatArea({
      ...{ ...core, instructions, counter: meter.counter, llm, toolSets: toolOffers },
      serverExists: (id) => repo.get(id) !== undefined,
      settings: () => settings.read(),
      // Every model-initiated call goes through the tool router: standing decisions, the consent dialog, the audit trail.
      // Only tools the user offers to the model (and never those a server keeps for its app): see tool-offers/.
      toolbox: {
        list: (serverIds, toolSetId) => toolOffers.forModel(serverIds, toolSetId),
        call: (request) => tools.router.callToolWithConsent(request),
        instructions: (serverIds) => instructions.forServers(serverIds),
        review: (block, context) => guard.review.reviewResult(block, context),
        skills: { forModel: () => skills.forModel(), load: (skill, file, signal) => skills.load(skill, file, signal) },
      },
      // What the user attaches or chooses from servers, read and audited by the resources and prompts areas.
      context: {
        readForAttachment: (serverId, uri) => resources.readForAttachment(serverId, uri),
        heldPrompt: (useId) => prompts.uses.get(useId),
        review: (text, context) => guard.review.reviewText(text, context),
        releasePrompt: (useId) => prompts.uses.release(useId),
        recordUse: (use) => {
          resources.recordUse(use);
          guard.noteAttachment(use);
        },
        appContexts: (conversationId) => apps.takeModelContexts(conversationId),
      },
    }),
  );
  // Sampling and elicitation: server requests answered through any configured provider, with the user in the loop.
  areas.add(
    createSamplingArea({
      ...{ ...core, questions, router: llm.router },
      models: () => llm.models(),
      runningCallFor: (serverId) => tools.runningCallFor(serverId),
      redactJson: (serverId, value) => JSON.stringify(redactValue(value, logs.service.redactorFor(serverId))),
    }),
  );
  // Roots: the folders shared with servers ("Share folders" questions); changing them restarts a sandboxed server.
  areas.add(
    createRootsArea({
      ...{ folders, clock, questions, pickFolder: ports.pickFolder, timings: ports.roots },
      restartServer: (id) => void fleet.start(id).catch(() => undefined),
      sandboxedFolders: (id) => sandboxes.foldersOf(id),
    }),
  );

  const handlers = areas.handlers(async () => ({ info, ...areas.snapshot() }) as HostSnapshot);
  // Stored keys are opened once (one that cannot be opened is reported) and unlisted providers asked for their models.
  areas.start();
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
    appFrames: apps.frames,
    async startServers() {
      await servers.reapLeftovers();
      if (!disposed) fleet.startAllEnabled();
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await areas.dispose();
    },
  };
}
