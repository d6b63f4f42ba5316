/**
 * Tools and consent, composed: the router (the only way a tool call leaves), the consent broker and
 * standing decisions, the audit trail, the result cache, and what host.ts wires in — a connection
 * plugin, the contract handlers, the snapshot part, and an ordered dispose.
 */
import type Database from 'better-sqlite3';
import type { consentMethods, ConsentSnapshot, HandlersFor, toolMethods, ToolsSnapshot } from '@contract';
import { AuditStore } from '../audit/audit-store';
import { SecretValues } from '../audit/secret-values';
import { ConsentBroker } from '../consent/consent-broker';
import { createConsentHandlers } from '../consent/consent-handlers';
import { ConsentPolicies } from '../consent/consent-policies';
import { consentPlugin } from '../consent/consent-plugin';
import { ConsentPrefs } from '../consent/consent-prefs';
import { PolicyRepository } from '../consent/policy-repository';
import type { HostEventBus } from '../events';
import type { QuestionQueue } from '../questions/question-queue';
import type { Clock } from '../clock';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerConfigRepository } from '../server-config/server-config-repository';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { CatalogWatch } from './catalog-watch';
import { ResultCache } from './result-cache';
import { createToolHandlers, type ToolHandlerDeps } from './tool-handlers';
import { ToolRouter, type ToolRouterDeps } from './tool-router';

export interface ToolsAreaDeps {
  /** The host's (migrated) connection: standing decisions, preferences, the audit trail. */
  db: Database.Database;
  connection(serverId: string): LiveServer | undefined;
  readyNow(serverId: string): ReadyServer | undefined;
  repo: ServerConfigRepository;
  secrets: SecretBox;
  events: HostEventBus;
  clock: Clock;
  /** Where the consent dialog's questions wait for the user. */
  questions: QuestionQueue;
  /** Runs calls of task-capable tools as tasks. */
  tasks?: ToolRouterDeps['tasks'];
  /** Keeps the outcome of a user's run that ran as a task, for the Tasks tab. */
  keepTaskOutcome?: ToolHandlerDeps['keepTaskOutcome'];
  /** Rules, the organisation's policy and the three-way risk (guard/), asked before standing decisions. */
  guard?: ToolRouterDeps['guard'];
  /** What the content scanner flags in a tool's title and description, shown in the Tools tab. */
  descriptionFlags?: ToolHandlerDeps['descriptionFlags'];
}

export interface ToolsArea {
  readonly name: 'tools';
  /** In-process only (the chat loop, tests): never reachable from a renderer. */
  readonly router: ToolRouter;
  readonly results: ResultCache;
  readonly plugin: ConnectionPlugin;
  readonly handlers: HandlersFor<typeof toolMethods & typeof consentMethods>;
  snapshot(): { tools: ToolsSnapshot; consent: ConsentSnapshot };
  /** For sampling: the newest call running on this server now (a request the server sends is nested in it). */
  runningCallFor(serverId: string): { callId: string; tool: string } | undefined;
  /** Denies pending requests, cancels running calls (bounded wait), writes the last outcomes. Before the fleet stops. */
  dispose(): Promise<void>;
}

export function createToolsArea(deps: ToolsAreaDeps): ToolsArea {
  const { events, clock } = deps;
  const policyRepo = new PolicyRepository(deps.db);
  const prefs = new ConsentPrefs(policyRepo);
  const audit = new AuditStore(deps.db);
  // At start, before any call: calls a previous run never finished are interrupted, never re-run.
  audit.markInterrupted();
  const secretValues = new SecretValues(deps.repo, deps.secrets);
  const readyTools = (serverId: string) => deps.readyNow(serverId)?.catalog.tools;
  const policies = new ConsentPolicies(policyRepo, { tools: readyTools, serverName: (id) => deps.repo.get(id)?.name }, clock);
  const broker = new ConsentBroker({ questions: deps.questions, clock, timeoutMs: () => prefs.timeoutMs() });
  const policiesChanged = () => events.emit('standingDecisionsChanged', policies.list());
  const router = new ToolRouter({
    connection: deps.connection,
    readyNow: deps.readyNow,
    broker,
    policies,
    audit,
    secretValues,
    events,
    clock,
    onPoliciesChanged: policiesChanged,
    ...(deps.tasks ? { tasks: deps.tasks } : {}),
    ...(deps.guard ? { guard: deps.guard } : {}),
  });
  const results = new ResultCache();
  const watch = new CatalogWatch(readyTools, (serverId) => {
    events.emit('toolsChanged', { serverId });
    // A standing decision may just have been suspended (or restored).
    if (policies.list().some((d) => d.serverId === serverId)) policiesChanged();
  });

  let disposed: Promise<void> | undefined;
  return {
    name: 'tools',
    router,
    results,
    plugin: consentPlugin({
      broker,
      policies: policyRepo,
      secretValues,
      onPoliciesChanged: policiesChanged,
      onToolsListed: (id) => watch.poke(id),
    }),
    handlers: {
      ...createToolHandlers({
        router,
        results,
        policies,
        readyNow: deps.readyNow,
        keepTaskOutcome: deps.keepTaskOutcome,
        descriptionFlags: deps.descriptionFlags,
      }),
      ...createConsentHandlers({ policies, prefs, audit, isRunning: (callId) => router.isRunning(callId), events }),
    },
    snapshot: () => ({
      tools: { running: router.runningCalls() },
      consent: { decisions: policies.list(), settings: prefs.read() },
    }),
    runningCallFor: (serverId) => {
      const call = router
        .runningCalls()
        .filter((c) => c.serverId === serverId)
        .at(-1);
      return call ? { callId: call.callId, tool: call.tool } : undefined;
    },
    dispose() {
      disposed ??= (async () => {
        await router.dispose();
        audit.close();
      })();
      return disposed;
    },
  };
}
