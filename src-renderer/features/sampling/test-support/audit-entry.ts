/** Test data for the Server requests list. */
import type { InteractionAuditEntry } from '@contract';

/** An audit entry as the host sends it. */
export function auditEntry(overrides: Partial<InteractionAuditEntry> = {}): InteractionAuditEntry {
  return {
    seq: 1,
    kind: 'sampling',
    serverId: 'srv-1',
    serverName: 'everything',
    toolCall: 'trigger-sampling-request',
    decidedBy: 'user',
    outcome: 'sent',
    request: '{"asked":{"maxTokens":50},"approved":{"model":"m1"}}',
    response: '{"text":"42","model":"m1"}',
    requestedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    decidedAt: new Date().toISOString(),
    ...overrides,
  };
}
