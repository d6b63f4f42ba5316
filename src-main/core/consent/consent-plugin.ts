import type { SecretValues } from '../audit/secret-values';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import type { ConsentBroker } from './consent-broker';
import type { PolicyRepository } from './policy-repository';

/**
 * What consent needs to know about each connection: a server that leaves `ready` (stopped, crashed,
 * restarting) withdraws its pending requests, so their dialogs close; a removed server takes its
 * standing decisions with it. A restart may come with a new configuration: its secrets are re-read.
 * And every `tools/list` answer is reported, so a changed tool shows at once (see CatalogWatch).
 */
export function consentPlugin(deps: {
  broker: ConsentBroker;
  policies: PolicyRepository;
  secretValues: SecretValues;
  onPoliciesChanged(): void;
  /** A `tools/list` answer arrived from the server (see CatalogWatch). */
  onToolsListed(serverId: string): void;
}): ConnectionPlugin {
  return {
    onWire(server, direction, message) {
      if (direction === 'in' && 'result' in message && Array.isArray((message.result as { tools?: unknown }).tools))
        deps.onToolsListed(server.id);
    },
    onStateChange(server, state) {
      if (state.status === 'ready') return;
      deps.broker.withdrawServer(server.id, `server "${server.name}" is ${state.status === 'starting' ? 'restarting' : state.status}`);
      if (state.status === 'starting') deps.secretValues.forget(server.id);
    },
    onRemoved(server) {
      deps.broker.withdrawServer(server.id, `server "${server.name}" was removed`);
      deps.secretValues.forget(server.id);
      deps.policies.forgetServer(server.id);
      deps.onPoliciesChanged();
    },
  };
}
