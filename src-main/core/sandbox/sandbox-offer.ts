/**
 * The one-time offer to existing servers: local servers added before the sandbox became the default
 * run unsandboxed, and nothing moves them behind the user's back. The first time the host starts where
 * a sandbox runs, it notes which servers those are (the Servers page then offers each the move, with
 * what it would see); with none to offer the question is settled for good, so a server run
 * unsandboxed later by choice is never offered the move.
 */
import type { Settings } from '@contract';
import type { StoredServer } from '../server-config/server-config-repository';

export type SandboxOffer = Settings['sandboxOffer'];

export interface SandboxOfferDeps {
  servers(): readonly Pick<StoredServer, 'id' | 'transport' | 'sandbox' | 'preset'>[];
  read(): SandboxOffer;
  write(offer: SandboxOffer): void;
  /** New servers are sandboxed by default here (a sandbox runs). */
  sandboxByDefault(): boolean;
}

/** Opens the offer once (at start), listing the local servers that run unsandboxed; presets stay as they are. */
export function openSandboxOffer(deps: SandboxOfferDeps): SandboxOffer {
  const offer = deps.read();
  if (offer.state !== 'unset' || !deps.sandboxByDefault()) return offer;
  // Presets run Patchbay's own code with their data in the data directory: unsandboxed by design.
  const serverIds = deps
    .servers()
    .filter((server) => server.transport === 'stdio' && !server.sandbox.enabled && !server.preset)
    .map((server) => server.id);
  const next: SandboxOffer = serverIds.length > 0 ? { state: 'open', serverIds } : { state: 'answered', serverIds: [] };
  deps.write(next);
  return next;
}
