import { describe, expect, it } from 'vitest';
import type { HostSnapshot, RootsAuditEntry } from '@contract';
import { ROOTS_AUDIT_KEPT, rootsSlice, type RootsState } from './roots-slice';

const entry = (id: number): RootsAuditEntry => ({ id, at: '', serverId: 's1', serverName: 'files', action: 'sent', roots: [], detail: '' });

describe('rootsSlice', () => {
  it('fills from the snapshot, and keeps its state when the snapshot has no roots section', () => {
    const roots = {
      roots: [],
      sharing: [{ serverId: 's1', mode: 'all' as const, rootIds: [] }],
      audit: [entry(2), entry(1)],
    };
    expect(rootsSlice.fromSnapshot!({ roots } as unknown as HostSnapshot)).toEqual({
      roots: [],
      rootSharing: { s1: roots.sharing[0] },
      rootsAudit: [entry(2), entry(1)],
    });
    expect(rootsSlice.fromSnapshot!({} as HostSnapshot)).toEqual({});
  });

  it('drops the sharing of a removed server, and bounds the audit', () => {
    let state: RootsState = rootsSlice.initial;
    const apply = (event: Parameters<NonNullable<typeof rootsSlice.apply>>[1]) =>
      (state = { ...state, ...rootsSlice.apply!(state, event) });
    apply({ name: 'rootsChanged', payload: { roots: [], sharing: [{ serverId: 's2', mode: 'none', rootIds: [] }] } });
    apply({ name: 'serverRemoved', payload: { id: 's2' } });
    expect(state.rootSharing).toEqual({});

    for (let id = 1; id <= ROOTS_AUDIT_KEPT + 5; id++) apply({ name: 'rootsAuditAppended', payload: entry(id) });
    expect(state.rootsAudit).toHaveLength(ROOTS_AUDIT_KEPT);
    expect(state.rootsAudit[0].id).toBe(ROOTS_AUDIT_KEPT + 5);
  });
});
