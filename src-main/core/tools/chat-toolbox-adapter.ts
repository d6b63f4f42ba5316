/**
 * The chat loop's toolbox over the tool router: every model-initiated call of a conversation goes
 * through `callToolWithConsent({origin: 'model'})` — standing decisions, the consent dialog, the
 * write-ahead audit trail — and nothing else.
 */
import type { ChatToolbox, ToolCallOutcome } from '../chat/chat-toolbox';
import { listFleetTools } from '../chat/fleet-toolbox';
import type { ServerFleet } from '../server-fleet/server-fleet';
import type { ToolRouter } from './tool-router';

const OUTCOMES = { ok: 'done', tool_error: 'error', protocol_error: 'error', cancelled: 'cancelled', denied: 'denied' } as const;

export function routerToolbox(router: ToolRouter, fleet: Pick<ServerFleet, 'list' | 'connection'>): ChatToolbox {
  return {
    list: (serverIds) => listFleetTools(fleet, serverIds),
    async call(request): Promise<ToolCallOutcome> {
      const done = await router.callToolWithConsent({
        serverId: request.serverId,
        tool: request.toolName,
        args: request.args,
        origin: 'model',
        signal: request.signal,
        onStage: (stage) => request.onStatus(stage),
        onProgress: (progress) => request.onStatus('running', progress),
      });
      return {
        outcome: OUTCOMES[done.status],
        isError: done.status !== 'ok',
        content: done.result.content ?? [],
        ...(done.result.structuredContent !== undefined ? { structuredContent: done.result.structuredContent } : {}),
      };
    },
  };
}
