import { type HandlersFor, HostCallError, type rootsMethods } from '@contract';
import { listFolders } from './folder-listing';
import { RootPathError } from './root-path';
import type { RootsAuditRepository } from './roots-audit-repository';
import type { RootsService } from './roots-service';

export interface RootsHandlerDeps {
  service: RootsService;
  audit: RootsAuditRepository;
  /** The native folder picker (desktop app only). */
  pickFolder?: () => Promise<string | undefined>;
}

/** The contract's roots methods ("Share folders" is answered through the one queue of questions: questions/). */
export function createRootsHandlers({ service, audit, pickFolder }: RootsHandlerDeps): HandlersFor<typeof rootsMethods> {
  return {
    addRoot: ({ path, name }) => service.add(path, name),
    renameRoot: async ({ id, name }) => service.rename(id, name),
    setRootReadOnly: async ({ id, readOnly }) => service.setReadOnly(id, readOnly),
    removeRoot: async ({ id }) => service.remove(id),
    setRootSharing: async ({ serverId, mode, rootIds }) => service.setSharing(serverId, mode, rootIds, 'changed by you'),

    pickFolder: async () => {
      if (!pickFolder)
        throw new HostCallError('forbidden', 'There is no native folder picker in web mode: type the folder’s path instead.');
      return { path: (await pickFolder()) ?? null };
    },

    listFolders: async ({ path, showHidden }) => {
      try {
        return await listFolders(path, { showHidden });
      } catch (error) {
        if (!(error instanceof RootPathError)) throw error;
        throw new HostCallError('invalid_input', error.message, [{ path: ['path'], message: error.message }]);
      }
    },

    listRootsAudit: async ({ serverId, limit }) => audit.list({ serverId, limit }),
  };
}
