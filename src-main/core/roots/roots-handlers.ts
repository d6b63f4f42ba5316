import { type HandlersFor, HostCallError, type RootSharingView, type rootsMethods } from '../../../src-preload/contract';
import { listFolders } from './folder-listing';
import { RootPathError } from './root-path';
import type { RootsAuditRepository } from './roots-audit-repository';
import type { RootsConsentBroker } from './roots-consent';
import type { RootsService } from './roots-service';

export interface RootsHandlerDeps {
  service: RootsService;
  consent: RootsConsentBroker;
  audit: RootsAuditRepository;
  /** The native folder picker (desktop app only). */
  pickFolder?: () => Promise<string | undefined>;
}

/** The contract's roots methods. */
export function createRootsHandlers({ service, consent, audit, pickFolder }: RootsHandlerDeps): HandlersFor<typeof rootsMethods> {
  return {
    addRoot: ({ path, name }) => service.add(path, name),
    renameRoot: async ({ id, name }) => service.rename(id, name),
    setRootReadOnly: async ({ id, readOnly }) => service.setReadOnly(id, readOnly),
    removeRoot: async ({ id }) => service.remove(id),
    setRootSharing: async ({ serverId, mode, rootIds }) => service.setSharing(serverId, mode, rootIds, 'changed by you'),

    answerRootsConsent: async ({ id, share, rootIds }) => {
      // The decision itself is persisted by the broker's onAnswer (see roots-area), exactly once.
      const request = consent.answer(id, { share, rootIds });
      return service.policy(request.serverId) ?? ({ serverId: request.serverId, mode: 'undecided', rootIds: [] } satisfies RootSharingView);
    },

    answerRootsConsentGroup: async ({ groupId, share, rootIds }) =>
      consent
        .answerGroup(groupId, { share, rootIds })
        .map(
          (request) =>
            service.policy(request.serverId) ?? ({ serverId: request.serverId, mode: 'undecided', rootIds: [] } satisfies RootSharingView),
        ),

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
