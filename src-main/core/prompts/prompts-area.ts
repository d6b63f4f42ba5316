/**
 * Prompts and completion, composed for the composition root: the prompt handlers (lists from the
 * host's copy, audited `prompts/get`), the prompts held for the chat, and the completion handler
 * shared by prompt arguments and resource template variables.
 */
import type { completionMethods, HandlersFor, promptMethods } from '@contract';
import type { ContentAuditStore } from '../audit/content-audit-store';
import type { Clock } from '../clock';
import { createCompletionHandlers } from '../completion/completion-handlers';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import { createPromptHandlers } from './prompt-handlers';
import { PromptUses } from './prompt-uses';

export interface PromptsAreaDeps {
  connection(serverId: string): LiveServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  /** The server when it is Ready now, else undefined (the lists leave it out). */
  readyNow(serverId: string): ReadyServer | undefined;
  audit: ContentAuditStore;
  clock: Clock;
  /** How long a completion may take before it yields nothing. */
  completionTimeoutMs?: number;
}

export interface PromptsArea {
  readonly name: 'prompts';
  /** Prompts fetched for the chat, until the message using them is sent. */
  readonly uses: PromptUses;
  readonly handlers: HandlersFor<typeof promptMethods & typeof completionMethods>;
}

export function createPromptsArea(deps: PromptsAreaDeps): PromptsArea {
  const uses = new PromptUses();
  return {
    name: 'prompts',
    uses,
    handlers: {
      ...createPromptHandlers({ ...deps, uses }),
      ...createCompletionHandlers({ readyNow: deps.readyNow, timeoutMs: deps.completionTimeoutMs }),
    },
  };
}
