import type { ServerView } from '../../../src-preload/contract';
import type { StoreSlice } from './slice';

/** Every configured server by id, in the order they were added. */
export interface ServersState {
  servers: Record<string, ServerView>;
  serverOrder: string[];
}

export const serversSlice: StoreSlice<ServersState> = {
  initial: { servers: {}, serverOrder: [] },
  fromSnapshot: (snapshot) => ({
    servers: Object.fromEntries(snapshot.servers.map((server) => [server.config.id, server])),
    serverOrder: snapshot.servers.map((server) => server.config.id),
  }),
  apply: ({ servers, serverOrder }, event) => {
    if (event.name === 'serverUpdated') {
      const id = event.payload.config.id;
      return { servers: { ...servers, [id]: event.payload }, serverOrder: id in servers ? serverOrder : [...serverOrder, id] };
    }
    if (event.name === 'serverRemoved') {
      const { [event.payload.id]: _removed, ...rest } = servers;
      return { servers: rest, serverOrder: serverOrder.filter((id) => id !== event.payload.id) };
    }
    return undefined;
  },
};
