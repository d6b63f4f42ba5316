import type { ServerDiagnosis, ServerView } from '@contract';
import type { StoreSlice } from './slice';

/** Every configured server by id, in the order they were added. */
export interface ServersState {
  servers: Record<string, ServerView>;
  serverOrder: string[];
  /** The latest diagnosis of each server this window saw reported (`serverDiagnosis`), as far as it has got. */
  diagnoses: Record<string, ServerDiagnosis>;
}

export const serversSlice: StoreSlice<ServersState> = {
  initial: { servers: {}, serverOrder: [], diagnoses: {} },
  fromSnapshot: (snapshot) => ({
    servers: Object.fromEntries(snapshot.servers.map((server) => [server.config.id, server])),
    serverOrder: snapshot.servers.map((server) => server.config.id),
  }),
  apply: ({ servers, serverOrder, diagnoses }, event) => {
    if (event.name === 'serverDiagnosis') return { diagnoses: { ...diagnoses, [event.payload.serverId]: event.payload } };
    if (event.name === 'serverUpdated') {
      const id = event.payload.config.id;
      return { servers: { ...servers, [id]: event.payload }, serverOrder: id in servers ? serverOrder : [...serverOrder, id] };
    }
    if (event.name === 'serverRemoved') {
      const { [event.payload.id]: _removed, ...rest } = servers;
      const { [event.payload.id]: _diagnosis, ...kept } = diagnoses;
      return { servers: rest, serverOrder: serverOrder.filter((id) => id !== event.payload.id), diagnoses: kept };
    }
    return undefined;
  },
};
