import { useCallback } from 'react';
import type { AuditEntry, HostApi } from '@contract';
import { useAuditPages, type AuditPages } from '../../ui/use-audit-pages';

/** The tool-call audit trail, a page at a time; `refresh` changes whenever a call was decided or ended. */
export function useAuditTrail(api: HostApi, refresh: unknown): AuditPages<AuditEntry> {
  const load = useCallback((page: { limit: number; before?: number }) => api.listToolAudit(page), [api]);
  return useAuditPages(load, refresh);
}
