import type { ReadyServer } from '../servers/connection/live-server';
import type { InstructionPrefs } from './instruction-prefs';
import type { ServerInstructions } from './server-instructions';

export interface InstructionsSourceDeps {
  prefs: InstructionPrefs;
  /** The server when it is Ready now (it carries what its handshake said). */
  readyNow(serverId: string): ReadyServer | undefined;
  serverName(serverId: string): string | undefined;
}

/** Servers' instructions and the user's switches for them, as the chat and the Overview ask. */
export interface InstructionsSource {
  /** The instructions of these servers that go to the model (switched on, non-empty), in this order. */
  forServers(serverIds: readonly string[]): ServerInstructions[];
  /** One server's instructions (whether sent or not) and its switch. */
  of(serverId: string): { text?: string; send: boolean };
  setSend(serverId: string, send: boolean): void;
}

export function createInstructionsSource({ prefs, readyNow, serverName }: InstructionsSourceDeps): InstructionsSource {
  // From the initialize result, or `server/discover` in the 2026 era (the SDK keeps either).
  const instructionsOf = (serverId: string) => {
    return readyNow(serverId)?.state.server.instructions;
  };
  return {
    forServers: (serverIds) =>
      serverIds.flatMap((serverId) => {
        const text = instructionsOf(serverId);
        if (!text?.trim() || !prefs.sends(serverId)) return [];
        return [{ serverId, serverName: serverName(serverId) ?? serverId, text }];
      }),
    of: (serverId) => {
      const text = instructionsOf(serverId);
      return { ...(text?.trim() ? { text } : {}), send: prefs.sends(serverId) };
    },
    setSend: (serverId, send) => prefs.set(serverId, send),
  };
}
