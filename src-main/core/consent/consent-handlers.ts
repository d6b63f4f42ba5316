import type { consentMethods, HandlersFor } from '@contract';
import type { AuditStore } from '../audit/audit-store';
import type { HostEventBus } from '../events';
import type { ConsentPolicies } from './consent-policies';
import type { ConsentPrefs } from './consent-prefs';

export interface ConsentHandlerDeps {
  policies: ConsentPolicies;
  prefs: ConsentPrefs;
  audit: AuditStore;
  /** Whether a call is still running (the audit shows such a call as running, not interrupted). */
  isRunning(callId: string): boolean;
  events: HostEventBus;
}

/**
 * The renderer's side of consent (its questions are answered through the one queue: questions/):
 * manage standing decisions, read the audit trail. Every change of standing decisions is pushed to every window.
 */
export function createConsentHandlers(deps: ConsentHandlerDeps): HandlersFor<typeof consentMethods> {
  const changed = () => {
    const list = deps.policies.list();
    deps.events.emit('standingDecisionsChanged', list);
    return list;
  };

  return {
    listStandingDecisions: async () => deps.policies.list(),

    setToolPolicy: async ({ serverId, tool, policy }) => {
      deps.policies.setToolPolicy(serverId, tool, policy);
      return changed();
    },

    setServerTrust: async ({ serverId, trusted, confirmedTools }) => {
      deps.policies.setServerTrust(serverId, trusted, confirmedTools);
      return changed();
    },

    revokeDecision: async ({ id }) => {
      deps.policies.revoke(id);
      return changed();
    },

    listToolAudit: async ({ serverId, before, limit }) =>
      deps.audit.list({ ...(serverId ? { serverId } : {}), ...(before ? { before } : {}), limit }, deps.isRunning),

    updateConsentSettings: async (settings) => {
      const saved = deps.prefs.write(settings);
      deps.events.emit('consentSettingsChanged', saved);
      return saved;
    },
  };
}
