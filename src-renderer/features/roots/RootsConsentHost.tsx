import { useAppStore } from '../../stores/use-app-store';
import { ShareFoldersDialog } from './ShareFoldersDialog';

/**
 * Shows the oldest open "Share folders" question, whatever page is open (mounted once by the shell).
 * The dialog goes away when the host says the question settled, not before: answering elsewhere (another
 * window, a timeout) closes it too.
 */
export function RootsConsentHost() {
  const request = useAppStore((s) => s.rootsConsents[0]);
  const roots = useAppStore((s) => s.roots);
  const api = useAppStore((s) => s.api);
  if (!request) return null;
  return (
    <ShareFoldersDialog
      key={request.id}
      request={request}
      roots={roots}
      onAnswer={(answer) => api.answerRootsConsent({ id: request.id, ...answer })}
    />
  );
}
