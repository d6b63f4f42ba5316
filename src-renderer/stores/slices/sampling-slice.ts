import type { ElicitationRequestView, SamplingPolicy, SamplingRequestView } from '../../../src-preload/contract';
import type { StoreSlice } from './slice';

/** Sampling and elicitation requests waiting for the user (the core keeps them), and per-server policies. */
export interface SamplingState {
  /** Oldest first. */
  samplingRequests: SamplingRequestView[];
  elicitations: ElicitationRequestView[];
  samplingPolicies: SamplingPolicy[];
  /** Why the last request went away without the user answering (withdrawn by its server, quit). */
  interactionNotice: string | null;
  /** Bumped whenever a request settled (and so was audited): the "Server requests" list refetches. */
  interactionsSettled: number;
}

export const samplingSlice: StoreSlice<SamplingState> = {
  initial: { samplingRequests: [], elicitations: [], samplingPolicies: [], interactionNotice: null, interactionsSettled: 0 },
  fromSnapshot: (snapshot) =>
    snapshot.sampling
      ? {
          samplingRequests: snapshot.sampling.sampling,
          elicitations: snapshot.sampling.elicitations,
          samplingPolicies: snapshot.sampling.policies,
        }
      : {},
  apply: (state, event) => {
    switch (event.name) {
      case 'samplingRequested':
        if (state.samplingRequests.some((r) => r.id === event.payload.id)) return undefined;
        return { samplingRequests: [...state.samplingRequests, event.payload], interactionNotice: null };
      case 'samplingUpdated':
        return { samplingRequests: state.samplingRequests.map((r) => (r.id === event.payload.id ? event.payload : r)) };
      case 'elicitationRequested':
        if (state.elicitations.some((r) => r.id === event.payload.id)) return undefined;
        return { elicitations: [...state.elicitations, event.payload], interactionNotice: null };
      case 'interactionSettled': {
        const { id, outcome, note } = event.payload;
        const notice = (outcome === 'withdrawn' || outcome === 'shutdown') && note ? note : state.interactionNotice;
        return {
          samplingRequests: state.samplingRequests.filter((r) => r.id !== id),
          elicitations: state.elicitations.filter((r) => r.id !== id),
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
