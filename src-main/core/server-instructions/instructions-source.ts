import type { ContentFlag } from '@contract';
import type { ReadyServer } from '../servers/connection/live-server';
import type { InstructionPrefs } from './instruction-prefs';
import type { ServerInstructions } from './server-instructions';

export interface InstructionsSourceDeps {
  prefs: InstructionPrefs;
  /** The server when it is Ready now (it carries what its handshake said). */
  readyNow(serverId: string): ReadyServer | undefined;
  serverName(serverId: string): string | undefined;
  /** The content scanner's findings in a text (instructions are scanned like results). */
  scan?(text: string): ContentFlag[];
}

/** Servers' instructions and the user's switches for them, as the chat and the Overview ask. */
export interface InstructionsSource {
  /** The instructions of these servers that go to the model (switched on, non-empty), in this order. */
  forServers(serverIds: readonly string[]): ServerInstructions[];
  /** One server's instructions (whether sent or not), its switch, and what the scanner flagged in them. */
  of(serverId: string): { text?: string; send: boolean; flags?: ContentFlag[] };
  setSend(serverId: string, send: boolean): void;
}

export function createInstructionsSource({ prefs, readyNow, serverName, scan }: InstructionsSourceDeps): InstructionsSource {
  // Instructions change only with a new handshake: each text is scanned once (twelve copies share one scan).
  const scans = new Map<string, ContentFlag[]>();
  const flagsOf = (text: string): ContentFlag[] => {
    if (!scan) return [];
    let flags = scans.get(text);
    if (!flags) {
      if (scans.size > 500) scans.clear();
      flags = scan(text);
      scans.set(text, flags);
    }
    return flags;
  };
  // From the initialize result, or `server/discover` in the 2026 era (the SDK keeps either).
  const instructionsOf = (serverId: string) => {
    return readyNow(serverId)?.state.server.instructions;
  };
  return {
    forServers: (serverIds) =>
      serverIds.flatMap((serverId) => {
        const text = instructionsOf(serverId);
        if (!text?.trim() || !prefs.sends(serverId)) return [];
        const flags = flagsOf(text);
        return [{ serverId, serverName: serverName(serverId) ?? serverId, text, ...(flags.length ? { flags } : {}) }];
      }),
    of: (serverId) => {
      const text = instructionsOf(serverId);
      const flags = text?.trim() ? flagsOf(text) : [];
      return { ...(text?.trim() ? { text } : {}), send: prefs.sends(serverId), ...(flags.length ? { flags } : {}) };
    },
    setSend: (serverId, send) => prefs.set(serverId, send),
  };
}
