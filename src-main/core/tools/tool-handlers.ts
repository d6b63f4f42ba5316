import type { Tool } from '@modelcontextprotocol/client';
import {
  type ContentFlag,
  type HandlersFor,
  HostCallError,
  type JsonObject,
  type ToolCallOutcome,
  type toolMethods,
  type ToolView,
} from '@contract';
import type { ConsentPolicies } from '../consent/consent-policies';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { definitionHash, toolHints } from '../tool-definition/definition';
import { toolApp } from '../tool-definition/tool-ui';
import { runsAsTask } from '../tasks/tool-tasks';
import type { ResultCache } from './result-cache';
import { resultPart } from './result-preview';
import { toOutcome } from './tool-outcome';
import type { ToolRouter } from './tool-router';

export interface ToolHandlerDeps {
  router: ToolRouter;
  results: ResultCache;
  policies: ConsentPolicies;
  readyNow(serverId: string): ReadyServer | undefined;
  /** Keeps the outcome of a call that ran as a task, for the Tasks tab. */
  keepTaskOutcome?(outcome: ToolCallOutcome): void;
  /** What the content scanner flags in a tool's title and description (scanned once per distinct text). */
  descriptionFlags?(tool: Tool): ContentFlag[];
}

/** A catalog tool as the Tools panel shows it, with its standing decision (and, given the connection, whether it runs as a task). */
export function toToolView(
  serverId: string,
  serverName: string,
  tool: Tool,
  policies: ConsentPolicies,
  connection?: Pick<LiveServer, 'state'>,
  flags: readonly ContentFlag[] = [],
): ToolView {
  const hints = toolHints(tool);
  const app = toolApp(tool);
  return {
    serverId,
    serverName,
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as JsonObject,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonObject } : {}),
    ...(hints ? { annotations: hints } : {}),
    definitionHash: definitionHash(tool),
    policy: policies.stateOf(serverId, tool),
    ...(app ? { app } : {}),
    ...(connection && runsAsTask(connection.state, tool) ? { runsAsTask: true } : {}),
    ...(flags.length > 0 ? { flags: [...flags] } : {}),
  };
}

/**
 * The contract's tool methods. `runTool` is the user's own run (the click is the consent): it goes
 * through the same router as model calls, audited as `user`, and answers with a capped preview.
 */
export function createToolHandlers(deps: ToolHandlerDeps): HandlersFor<typeof toolMethods> {
  return {
    listTools: async ({ serverId }) => {
      const connection = deps.readyNow(serverId);
      if (!connection) return [];
      return connection.catalog.tools.map((tool) =>
        toToolView(serverId, connection.name, tool, deps.policies, connection, deps.descriptionFlags?.(tool)),
      );
    },

    runTool: async ({ serverId, tool, args, callId }) => {
      const done = await deps.router.callToolWithConsent({ serverId, tool, args, origin: 'user', ...(callId ? { callId } : {}) });
      const outcome = toOutcome(done, deps.results);
      deps.keepTaskOutcome?.(outcome);
      return outcome;
    },

    cancelToolCall: async ({ callId }) => {
      if (!deps.router.cancel(callId)) throw new HostCallError('invalid_input', 'That call is not running any more.');
    },

    getToolResultPart: async ({ callId, part, offset, limit }) => {
      const result = deps.results.get(callId);
      if (!result)
        throw new HostCallError('invalid_input', 'That result is no longer kept in memory; run the tool again to see all of it.');
      const slice = resultPart(result, part, offset, limit);
      if (!slice) throw new HostCallError('invalid_input', `The result has no part ${String(part)}.`);
      return slice;
    },
  };
}
