import type { InstructionPrefs } from './instruction-prefs';
import type { ServerInstructions } from './server-instructions';

export interface InstructionsSourceDeps {
  prefs: InstructionPrefs;
  /** What a Ready server said in its handshake; undefined when it said nothing or is not Ready. */
  instructionsOf(serverId: string): string | undefined;
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

export function createInstructionsSource({ prefs, instructionsOf, serverName }: InstructionsSourceDeps): InstructionsSource {
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
