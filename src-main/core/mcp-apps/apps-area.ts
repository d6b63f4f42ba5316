/**
 * MCP Apps, composed for host.ts: the app origin (a second loopback listener serving the frame
 * proxy), the cache of `ui://` resources, the open views, the apps' waiting model contexts, the
 * connection plugin (declares the extension with the MIME type Patchbay renders; drops a server's
 * cached app resources when its lists change or it stops) and the contract's handlers.
 */
import { APP_MIME_TYPE, APPS_EXTENSION_ID, type ChatBlock, type HandlersFor, type mcpAppMethods } from '@contract';
import type { Clock } from '../clock';
import type { ResourceReader } from '../resources/resource-reader';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import type { ToolRouter } from '../tools/tool-router';
import { appOf, createAppHandlers } from './app-handlers';
import { AppViews } from './app-views';
import { AppModelContexts } from './model-contexts';
import { AppFrameServer } from './app-frame-server';
import { UiResourceCache } from './ui-resources';

export interface McpAppsAreaDeps {
  clock: Clock;
  connection(serverId: string): LiveServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  router: Pick<ToolRouter, 'callToolWithConsent'>;
  reader: Pick<ResourceReader, 'fetch'>;
}

export interface McpAppsArea {
  readonly name: 'mcp-apps';
  /** In-process (the bridges): the app origin's listener. Web mode and Electron set who may frame it. */
  readonly frames: AppFrameServer;
  readonly plugin: ConnectionPlugin;
  readonly handlers: HandlersFor<typeof mcpAppMethods>;
  /** For the chat: the apps' contexts waiting for a conversation's next message. */
  takeModelContexts(conversationId: string): { blocks: ChatBlock[]; release(): void };
  dispose(): Promise<void>;
}

export function createMcpAppsArea(deps: McpAppsAreaDeps): McpAppsArea {
  const frames = new AppFrameServer(() => deps.clock.now().getTime());
  const views = new AppViews();
  const contexts = new AppModelContexts(deps.clock);
  const resources = new UiResourceCache((serverId, uri) => {
    const name = deps.connection(serverId)?.name ?? serverId;
    return deps.reader.fetch(serverId, uri, 'app-ui', 'to show the app of a tool', appOf(name));
  });
  const plugin: ConnectionPlugin = {
    capabilities: { extensions: { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } },
    onCatalogChange: (server) => resources.drop(server.id),
    // A list_changed drops them even when the list reads the same (an app's HTML may have changed).
    onWire: (server, direction, message) => {
      const method = (message as { method?: unknown }).method;
      if (direction === 'in' && typeof method === 'string' && method.endsWith('/list_changed')) resources.drop(server.id);
    },
    onStateChange: (server, state) => {
      if (state.status !== 'ready') resources.drop(server.id);
    },
    onRemoved: (server) => {
      resources.drop(server.id);
      views.closeServer(server.id);
    },
  };
  return {
    name: 'mcp-apps',
    frames,
    plugin,
    handlers: createAppHandlers({ ...deps, frames, resources, views, contexts }),
    takeModelContexts: (conversationId) => contexts.take(conversationId),
    dispose: () => frames.close(),
  };
}
