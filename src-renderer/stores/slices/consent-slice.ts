import type { ConsentSettings, StandingDecision } from '@contract';
import type { StoreSlice } from './slice';

/** Standing decisions and consent settings (the questions themselves are in the questions slice). */
export interface ConsentState {
  /** Null until the snapshot came; kept current by events afterwards. */
  standingDecisions: StandingDecision[] | null;
  consentSettings: ConsentSettings | null;
}

export const consentSlice: StoreSlice<ConsentState> = {
  initial: { standingDecisions: null, consentSettings: null },
  fromSnapshot: (snapshot) =>
    snapshot.consent
      ? {
          standingDecisions: snapshot.consent.decisions,
          consentSettings: snapshot.consent.settings,
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'standingDecisionsChanged':
        return { standingDecisions: event.payload };
      case 'consentSettingsChanged':
        return { consentSettings: event.payload };
      default:
        return undefined;
    }
  },
};
