import { useShallow } from 'zustand/react/shallow';
import { questionsOf } from '../../stores/slices/questions-slice';
import { useAppStore } from '../../stores/use-app-store';
import { useRestartedBy } from './sandbox-restart';
import { ShareFoldersDialog } from './ShareFoldersDialog';

/**
 * The oldest open "Share folders" question with the others of its group (the servers that asked
 * together), shown by the question host when it is the oldest question of all. The dialog goes away
 * when the host says the questions settled, not before: answering elsewhere (another window, a
 * timeout) closes it too.
 */
export function RootsConsentHost() {
  const group = useAppStore(
    useShallow((s) => {
      const open = questionsOf(s, 'roots');
      return open.filter((c) => c.groupId === open[0]?.groupId);
    }),
  );
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
      onAnswer={(id, answer) => api.answerQuestion({ id, answer: { kind: 'roots', ...answer } })}
      onAnswerAll={(answer) => api.answerQuestion({ id: group[0].id, answer: { kind: 'roots', ...answer, wholeGroup: true } })}
      sandboxed={group.flatMap((request) => restartedBy({ serverId: request.serverId }))}
    />
  );
}
