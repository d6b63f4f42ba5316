import type { RootsAuditEntry, RootsConsentRequest, RootSharingView, RootView } from '../../../src-preload/contract';
import type { StoreSlice } from './slice';

/** How many audit entries the renderer keeps (the host has them all). */
export const ROOTS_AUDIT_KEPT = 50;

/** The folders, what each server may see, the open "Share folders" questions, and recent sharing. */
export interface RootsState {
  roots: RootView[];
  /** Decided policies by server id; a server missing here is undecided. */
  rootSharing: Record<string, RootSharingView>;
  /** Open questions, oldest first: the dialog shows the first. */
  rootsConsents: RootsConsentRequest[];
  /** Newest first. */
  rootsAudit: RootsAuditEntry[];
}

const byServer = (sharing: RootSharingView[]) => Object.fromEntries(sharing.map((s) => [s.serverId, s]));

export const rootsSlice: StoreSlice<RootsState> = {
  initial: { roots: [], rootSharing: {}, rootsConsents: [], rootsAudit: [] },
  fromSnapshot: (snapshot) =>
    // Older hosts (and partial test snapshots) may have no roots section: keep what we have.
    snapshot.roots
      ? {
          roots: snapshot.roots.roots,
          rootSharing: byServer(snapshot.roots.sharing),
          rootsConsents: snapshot.roots.consents,
          rootsAudit: snapshot.roots.audit.slice(0, ROOTS_AUDIT_KEPT),
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'rootsChanged':
        return { roots: event.payload.roots, rootSharing: byServer(event.payload.sharing) };
      case 'rootsConsentRequested':
        if (state.rootsConsents.some((c) => c.id === event.payload.id)) return undefined;
        return { rootsConsents: [...state.rootsConsents, event.payload] };
      case 'rootsConsentSettled':
        return { rootsConsents: state.rootsConsents.filter((c) => c.id !== event.payload.id) };
      case 'rootsAuditAppended':
        return { rootsAudit: [event.payload, ...state.rootsAudit].slice(0, ROOTS_AUDIT_KEPT) };
      case 'serverRemoved': {
        const id = event.payload.id;
        if (!(id in state.rootSharing) && !state.rootsConsents.some((c) => c.serverId === id)) return undefined;
        const { [id]: _removed, ...rest } = state.rootSharing;
        return { rootSharing: rest, rootsConsents: state.rootsConsents.filter((c) => c.serverId !== id) };
      }
      default:
        return undefined;
    }
  },
};
