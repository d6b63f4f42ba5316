import { useAppStore } from '../../stores/use-app-store';
import { ConsentDialog } from './ConsentDialog';

/**
 * Shows the oldest pending tool-call request, whatever page is open (mounted once by the shell), with
 * how many wait. The requests live in the core: a reload shows them again, and the dialog closes when
 * the host says the request settled (answered elsewhere, timed out, withdrawn), not before.
 */
export function ToolConsentHost() {
  const request = useAppStore((s) => s.toolConsents[0]);
  const count = useAppStore((s) => s.toolConsents.length);
  const api = useAppStore((s) => s.api);
  if (!request) return null;
  return (
    <ConsentDialog
      key={request.id}
      request={request}
      position={1}
      count={count}
      onDecide={(decision, editedArgs) => api.resolveConsent({ id: request.id, decision, ...(editedArgs ? { editedArgs } : {}) })}
    />
  );
}
