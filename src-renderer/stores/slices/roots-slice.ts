import type { RootsAuditEntry, RootSharingView, RootView } from '@contract';
import type { StoreSlice } from './slice';

/** How many audit entries the renderer keeps (the host has them all). */
export const ROOTS_AUDIT_KEPT = 50;

/** The folders, what each server may see, and recent sharing ("Share folders" questions: the questions slice). */
export interface RootsState {
  roots: RootView[];
  /** Decided policies by server id; a server missing here is undecided. */
  rootSharing: Record<string, RootSharingView>;
  /** Newest first. */
  rootsAudit: RootsAuditEntry[];
}

const byServer = (sharing: RootSharingView[]) => Object.fromEntries(sharing.map((s) => [s.serverId, s]));

export const rootsSlice: StoreSlice<RootsState> = {
  initial: { roots: [], rootSharing: {}, rootsAudit: [] },
  fromSnapshot: (snapshot) =>
    // Older hosts (and partial test snapshots) may have no roots section: keep what we have.
    snapshot.roots
      ? {
          roots: snapshot.roots.roots,
          rootSharing: byServer(snapshot.roots.sharing),
          rootsAudit: snapshot.roots.audit.slice(0, ROOTS_AUDIT_KEPT),
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'rootsChanged':
        return { roots: event.payload.roots, rootSharing: byServer(event.payload.sharing) };
      case 'rootsAuditAppended':
        return { rootsAudit: [event.payload, ...state.rootsAudit].slice(0, ROOTS_AUDIT_KEPT) };
      case 'serverRemoved': {
        const id = event.payload.id;
        if (!(id in state.rootSharing)) return undefined;
        const { [id]: _removed, ...rest } = state.rootSharing;
        return { rootSharing: rest };
      }
      default:
        return undefined;
    }
  },
};
