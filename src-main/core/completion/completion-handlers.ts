/**
 * `completion/complete` for the argument fields of prompts and resource templates. A suggestion is a
 * convenience, never a gate: a server without the `completions` capability, one that errors, and one
 * that does not answer within `timeoutMs` all yield an empty list (the request is cancelled on the
 * server), so typing in the field is never held up or interrupted by an error.
 */
import type { completionMethods, CompletionView, HandlersFor } from '@contract';
import type { ReadyServer } from '../servers/connection/live-server';

export interface CompletionDeps {
  readyNow(serverId: string): ReadyServer | undefined;
  /** How long a suggestion may take (default 3 s). */
  timeoutMs?: number;
  onWarning?(serverId: string, message: string): void;
}

const NONE: CompletionView = { values: [] };

export function createCompletionHandlers(deps: CompletionDeps): HandlersFor<typeof completionMethods> {
  return {
    completeArgument: async ({ serverId, ref, argument, context }) => {
      const connection = deps.readyNow(serverId);
      if (!connection?.state.server.capabilities.completions) return NONE;
      try {
        const result = await connection.complete(
          {
            ref: ref.type === 'prompt' ? { type: 'ref/prompt', name: ref.name } : { type: 'ref/resource', uri: ref.uri },
            argument,
            ...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
          },
          { timeoutMs: deps.timeoutMs ?? 3_000 },
        );
        const values = (result.completion?.values ?? []).filter((v): v is string => typeof v === 'string').slice(0, 100);
        return {
          values,
          ...(typeof result.completion?.total === 'number' ? { total: result.completion.total } : {}),
          ...(typeof result.completion?.hasMore === 'boolean' ? { hasMore: result.completion.hasMore } : {}),
        };
      } catch (error) {
        deps.onWarning?.(serverId, `Suggestions for "${argument.name}" failed: ${(error as Error).message}`);
        return NONE;
      }
    },
  };
}
