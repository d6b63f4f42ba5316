import { useCallback } from 'react';
import type { HostApi, InteractionAuditEntry } from '@contract';
import { useAuditPages, type AuditPages } from '../../ui/use-audit-pages';

/** The sampling/elicitation audit trail, a page at a time; `refresh` changes whenever a request settled. */
export function useInteractionAudit(api: HostApi, refresh: unknown): AuditPages<InteractionAuditEntry> {
  const load = useCallback((page: { limit: number; before?: number }) => api.listInteractionAudit(page), [api]);
  return useAuditPages(load, refresh);
}
