import { randomUUID } from 'node:crypto';
import { HostCallError, type HandlersFor, type PromptView, type promptMethods } from '@contract';
import type { ContentAuditStore } from '../audit/content-audit-store';
import type { Clock } from '../clock';
import type { LiveServer, ReadyServer } from '../servers/connection/live-server';
import type { PromptUses } from './prompt-uses';
import { previewPrompt, toPromptView } from './prompt-views';

export interface PromptHandlerDeps {
  connection(serverId: string): LiveServer | undefined;
  /** The server, ready, or the fleet's one error naming it (see `ServerFleet.ready`). */
  ready(serverId: string, toDo: string): ReadyServer;
  /** The server when it is Ready now, else undefined (the lists leave it out). */
  readyNow(serverId: string): ReadyServer | undefined;
  uses: PromptUses;
  audit: ContentAuditStore;
  clock: Clock;
}

/** The contract's prompt methods: lists from the host's copy, `prompts/get` on the user's word (audited, held for the chat). */
export function createPromptHandlers(deps: PromptHandlerDeps): HandlersFor<typeof promptMethods> {
  return {
    listPrompts: async ({ serverIds }) => {
      const prompts: PromptView[] = [];
      const notes: string[] = [];
      for (const serverId of serverIds) {
        const connection = deps.readyNow(serverId);
        if (!connection) continue;
        for (const prompt of connection.catalog.prompts) prompts.push(toPromptView(serverId, connection.name, prompt));
        if (connection.catalog.notes?.prompts) notes.push(connection.catalog.notes.prompts);
      }
      return { prompts, notes };
    },

    getPrompt: async ({ serverId, name, arguments: args, purpose }) => {
      const connection = deps.ready(serverId, 'use its prompts');
      const serverName = connection.name;
      const known = connection.catalog.prompts.find((p) => p.name === name);
      const missing = (known?.arguments ?? []).filter((a) => a.required && (args[a.name] ?? '').trim() === '');
      if (missing.length > 0) {
        throw new HostCallError(
          'invalid_input',
          `Fill in ${missing.map((a) => a.name).join(', ')}.`,
          missing.map((a) => ({ path: ['arguments', a.name], message: `${a.name} is required` })),
        );
      }
      // Empty optional arguments are left out rather than sent as "".
      const sent = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== ''));
      const audit = {
        action: 'prompt-preview' as const,
        serverId,
        serverName,
        target: name,
        detail: JSON.stringify(sent),
      };
      let result;
      try {
        result = await connection.getPrompt(name, sent);
      } catch (error) {
        const message = (error as Error).message;
        deps.audit.record({ ...audit, outcome: 'error', error: message, at: deps.clock.now().toISOString() });
        throw new HostCallError('invalid_input', message);
      }
      const { messages, chars } = previewPrompt(result);
      deps.audit.record({ ...audit, outcome: 'ok', chars, at: deps.clock.now().toISOString() });
      const useId = randomUUID();
      if (purpose === 'chat')
        deps.uses.hold(useId, { serverId, serverName, name, ...(known?.title ? { title: known.title } : {}), arguments: sent, result });
      return {
        useId,
        serverId,
        serverName,
        name,
        arguments: sent,
        ...(result.description ? { description: result.description } : {}),
        messages,
        chars,
      };
    },
  };
}
