import type { ConsentRequestView, ConsentSettings, StandingDecision } from '../../../src-preload/contract';
import type { StoreSlice } from './slice';

/** Model-initiated tool calls waiting for the user (the core keeps them), and standing decisions. */
export interface ConsentState {
  /** Oldest first: the dialog shows the first, with the count. */
  toolConsents: ConsentRequestView[];
  /** Null until the snapshot came; kept current by events afterwards. */
  standingDecisions: StandingDecision[] | null;
  consentSettings: ConsentSettings | null;
}

export const consentSlice: StoreSlice<ConsentState> = {
  initial: { toolConsents: [], standingDecisions: null, consentSettings: null },
  fromSnapshot: (snapshot) =>
    snapshot.consent
      ? {
          toolConsents: snapshot.consent.pending,
          standingDecisions: snapshot.consent.decisions,
          consentSettings: snapshot.consent.settings,
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'consentRequested':
        if (state.toolConsents.some((c) => c.id === event.payload.id)) return undefined;
        return { toolConsents: [...state.toolConsents, event.payload] };
      case 'consentSettled':
        return { toolConsents: state.toolConsents.filter((c) => c.id !== event.payload.id) };
      case 'standingDecisionsChanged':
        return { standingDecisions: event.payload };
      case 'consentSettingsChanged':
        return { consentSettings: event.payload };
      case 'serverRemoved': {
        const id = event.payload.id;
        if (!state.toolConsents.some((c) => c.serverId === id)) return undefined;
        return { toolConsents: state.toolConsents.filter((c) => c.serverId !== id) };
      }
      default:
        return undefined;
    }
  },
};
