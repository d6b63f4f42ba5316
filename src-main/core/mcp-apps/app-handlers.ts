/**
 * The contract's MCP Apps methods. Every app request names its view; the view fixes the server, so
 * an app reaches its own server only. A tool call goes through the router as origin `app` (standing
 * decisions, the Allow… dialog naming the app, the audit trail); a read goes through the resource
 * reader, audited as the app's. Both are named in the Protocol log as the app's.
 */
import { HostCallError, MAX_APP_RESULT_CHARS, type HandlersFor, type JsonObject, type mcpAppMethods } from '@contract';
import type { ResourceReader } from '../resources/resource-reader';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { toolApp } from '../tool-definition/tool-ui';
import type { ToolRouter } from '../tools/tool-router';
import { buildAppCsp } from './app-csp';
import type { AppViews } from './app-views';
import type { AppModelContexts } from './model-contexts';
import type { AppFrameServer } from './app-frame-server';
import type { UiResourceCache } from './ui-resources';

export interface AppHandlerDeps {
  connection(serverId: string): LiveServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  router: Pick<ToolRouter, 'callToolWithConsent'>;
  reader: Pick<ResourceReader, 'fetch'>;
  frames: AppFrameServer;
  resources: UiResourceCache;
  views: AppViews;
  contexts: AppModelContexts;
}

/** How an app is named to the user and in the Protocol log. */
export const appOf = (serverName: string) => `the app of ${serverName}`;

export function createAppHandlers(deps: AppHandlerDeps): HandlersFor<typeof mcpAppMethods> {
  return {
    openAppView: async ({ serverId, tool: toolName, parentOrigin, conversationId }) => {
      const connection = deps.ready(serverId, 'show its app');
      const tool = connection.catalog.tools.find((t) => t.name === toolName);
      const app = tool ? toolApp(tool) : undefined;
      if (!tool || !app) throw new HostCallError('invalid_input', `Tool "${toolName}" of server "${connection.name}" has no app.`);
      const frameOrigin = await deps.frames.start();
      const resource = await deps.resources.get(serverId, connection.name, app.resourceUri);
      const own = [frameOrigin, ...deps.frames.allowedParents().filter((o) => o.startsWith('http'))];
      const csp = buildAppCsp(resource.csp, own);
      let frameUrl: string;
      try {
        frameUrl = deps.frames.register(csp.header, parentOrigin);
      } catch (error) {
        throw new HostCallError('forbidden', (error as Error).message);
      }
      const view = deps.views.open({
        serverId,
        serverName: connection.name,
        tool: tool.name,
        resourceUri: app.resourceUri,
        ...(conversationId ? { conversationId } : {}),
      });
      return {
        viewId: view.viewId,
        serverId,
        serverName: connection.name,
        tool: tool.name,
        resourceUri: app.resourceUri,
        frameUrl,
        frameOrigin,
        html: resource.html,
        csp: csp.view,
        ...(resource.prefersBorder !== undefined ? { prefersBorder: resource.prefersBorder } : {}),
        toolInfo: {
          name: tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema as JsonObject,
        },
      };
    },

    closeAppView: async ({ viewId }) => deps.views.close(viewId),

    callToolFromApp: async ({ viewId, tool, args }) => {
      const view = deps.views.get(viewId);
      const done = await deps.router.callToolWithConsent({ serverId: view.serverId, tool, args, origin: 'app' });
      return { result: fitForApp(done.result as JsonObject, `the result of tool "${tool}"`) };
    },

    readResourceFromApp: async ({ viewId, uri }) => {
      const view = deps.views.get(viewId);
      const { result } = await deps.reader.fetch(
        view.serverId,
        uri,
        'app-read',
        `for the app of tool "${view.tool}"`,
        appOf(view.serverName),
      );
      const json = JSON.stringify(result);
      if (json.length > MAX_APP_RESULT_CHARS)
        throw new HostCallError(
          'payload_too_large',
          `${uri} is ${json.length.toLocaleString('en-US')} characters: too large to hand to the app.`,
        );
      return { result: result as JsonObject };
    },

    setAppModelContext: async ({ viewId, content, structuredContent }) => {
      const view = deps.views.get(viewId);
      if (!view.conversationId)
        throw new HostCallError('invalid_input', 'This app is not shown in a conversation: there is no model to tell.');
      return deps.contexts.set({ ...view, conversationId: view.conversationId }, content, structuredContent);
    },
  };
}

/** A result the app can be handed: whole when small enough, else an error result saying why. */
function fitForApp(result: JsonObject, what: string): JsonObject {
  const size = JSON.stringify(result).length;
  if (size <= MAX_APP_RESULT_CHARS) return result;
  return {
    isError: true,
    content: [{ type: 'text', text: `${what} is ${size.toLocaleString('en-US')} characters: too large to hand to the app.` }],
  };
}
