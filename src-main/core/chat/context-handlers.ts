import { HostCallError, type contextMethods, type HandlersFor } from '@contract';
import type { InstructionsSource } from '../server-instructions/instructions-source';
import type { ContextMeasurer } from './context-measure';

export interface ContextHandlerDeps {
  measurer: ContextMeasurer;
  instructions: InstructionsSource;
  /** Whether a server with this id is configured. */
  serverExists(serverId: string): boolean;
}

/** The contract's context methods: the meter's count, a server's instructions and tools' cost. */
export function createContextHandlers({ measurer, instructions, serverExists }: ContextHandlerDeps): HandlersFor<typeof contextMethods> {
  const known = (serverId: string) => {
    if (!serverExists(serverId)) throw new HostCallError('invalid_input', `No server with id ${serverId}: it may have been removed.`);
  };
  return {
    measureContext: async (input) => measurer.measure(input),
    getServerContext: async ({ serverId }) => {
      known(serverId);
      return measurer.serverContext(serverId);
    },
    setServerInstructions: async ({ serverId, send }) => {
      known(serverId);
      instructions.setSend(serverId, send);
      return measurer.serverContext(serverId);
    },
  };
}
