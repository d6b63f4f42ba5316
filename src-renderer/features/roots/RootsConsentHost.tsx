import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../stores/use-app-store';
import { useRestartedBy } from './sandbox-restart';
import { ShareFoldersDialog } from './ShareFoldersDialog';

/**
 * Shows the oldest open "Share folders" question with the others of its group (the servers that asked
 * together), whatever page is open (mounted once by the shell). The dialog goes away when the host says
 * the questions settled, not before: answering elsewhere (another window, a timeout) closes it too.
 */
export function RootsConsentHost() {
  const group = useAppStore(useShallow((s) => s.rootsConsents.filter((c) => c.groupId === s.rootsConsents[0]?.groupId)));
  const roots = useAppStore((s) => s.roots);
  const api = useAppStore((s) => s.api);
  const restartedBy = useRestartedBy();
  if (group.length === 0) return null;
  const groupId = group[0].groupId;
  return (
    <ShareFoldersDialog
      key={groupId}
      requests={group}
      roots={roots}
      onAnswer={(id, answer) => api.answerRootsConsent({ id, ...answer })}
      onAnswerAll={(answer) => api.answerRootsConsentGroup({ groupId, ...answer })}
      sandboxed={group.flatMap((request) => restartedBy({ serverId: request.serverId }))}
    />
  );
}
