import type { ResourceSubscriptionView } from '@contract';
import type { StoreSlice } from './slice';

/** Followed resources, and counters that tell lists of resources, prompts and the use trail to fetch again. */
export interface ResourcesState {
  resourceSubscriptions: ResourceSubscriptionView[];
  /** Per server, bumped whenever its resource, template or prompt lists changed. */
  contentRevision: Record<string, number>;
  /** Bumped whenever the resource and prompt use trail got a new row. */
  contentAuditRevision: number;
}

export const resourcesSlice: StoreSlice<ResourcesState> = {
  initial: { resourceSubscriptions: [], contentRevision: {}, contentAuditRevision: 0 },
  // Partial test snapshots may have no resources section: keep what we have.
  fromSnapshot: (snapshot) => (snapshot.resources ? { resourceSubscriptions: snapshot.resources.subscriptions } : {}),
  apply: (state, event) => {
    switch (event.name) {
      case 'resourceSubscriptionsChanged':
        return { resourceSubscriptions: event.payload };
      case 'serverContentChanged': {
        const id = event.payload.serverId;
        return { contentRevision: { ...state.contentRevision, [id]: (state.contentRevision[id] ?? 0) + 1 } };
      }
      case 'contentAudited':
        return { contentAuditRevision: state.contentAuditRevision + 1 };
      default:
        return undefined;
    }
  },
};
