import type { SamplingPolicy } from '@contract';
import type { StoreSlice } from './slice';

/** Per-server sampling policies, and what became of requests (the requests themselves: the questions slice). */
export interface SamplingState {
  samplingPolicies: SamplingPolicy[];
  /** Why the last request went away without the user answering (withdrawn by its server, quit). */
  interactionNotice: string | null;
  /** Bumped whenever a request settled (and so was audited): the "Server requests" list refetches. */
  interactionsSettled: number;
}

export const samplingSlice: StoreSlice<SamplingState> = {
  initial: { samplingPolicies: [], interactionNotice: null, interactionsSettled: 0 },
  fromSnapshot: (snapshot) =>
    snapshot.sampling
      ? {
          samplingPolicies: snapshot.sampling.policies,
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'questionAsked':
        // A new request from a server: the notice about the last one is old news.
        return event.payload.kind === 'sampling' || event.payload.kind === 'elicitation' ? { interactionNotice: null } : undefined;
      case 'interactionSettled': {
        const { outcome, note } = event.payload;
        const notice = (outcome === 'withdrawn' || outcome === 'shutdown') && note ? note : state.interactionNotice;
        return {
          interactionNotice: notice,
          interactionsSettled: state.interactionsSettled + 1,
        };
      }
      case 'samplingPoliciesChanged':
        return { samplingPolicies: event.payload };
      default:
        return undefined;
    }
  },
};
