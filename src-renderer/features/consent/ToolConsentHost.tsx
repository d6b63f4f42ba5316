import { useShallow } from 'zustand/react/shallow';
import { questionsOf } from '../../stores/slices/questions-slice';
import { useAppStore } from '../../stores/use-app-store';
import { ConsentDialog } from './ConsentDialog';

/**
 * The oldest pending tool-call question, with how many wait (shown by the question host when it is the
 * oldest question of all). The questions live in the core: a reload shows them again, and the dialog
 * closes when the host says the question settled (answered elsewhere, timed out, withdrawn), not before.
 */
export function ToolConsentHost() {
  const requests = useAppStore(useShallow((s) => questionsOf(s, 'tool')));
  const api = useAppStore((s) => s.api);
  const request = requests[0];
  if (!request) return null;
  return (
    <ConsentDialog
      key={request.id}
      request={request}
      position={1}
      count={requests.length}
      onDecide={(decision, editedArgs) =>
        api.answerQuestion({ id: request.id, answer: { kind: 'tool', decision, ...(editedArgs ? { editedArgs } : {}) } })
      }
    />
  );
}
