import { useState } from 'react';
import type { FlaggedContentRequest } from '@contract';
import { Modal } from '../../ui/Modal';
import { ContentFlags } from '../../ui/ContentFlags';
import { VisibleText } from '../../ui/VisibleText';
import '../../ui/content-flags.css';
import { messageOf } from '../../ui/call-errors';
import { Alert } from '../../ui/Alert';

const WHAT = { result: 'result', resource: 'resource', prompt: 'prompt' } as const;
const DESCRIBED = {
  result: (name: string) => `The result of ${name}`,
  resource: (name: string) => `The resource "${name}" you are attaching`,
  prompt: (name: string) => `The prompt "${name}" you chose`,
};

export interface FlaggedContentDialogProps {
  request: FlaggedContentRequest;
  /** Let the model see the result (true) or withhold it (false). */
  onAnswer(send: boolean): Promise<void>;
}

/**
 * A tool result the content scanner flagged, before the model sees it (Settings › Flagged content:
 * Ask). The turn waits. It closes when the host says the question settled, not on its own.
 */
export function FlaggedContentDialog({ request, onAnswer }: FlaggedContentDialogProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const answer = async (send: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      await onAnswer(send);
    } catch (error) {
      setFailure(messageOf(error));
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      // Escape or the overlay withholds: nothing flagged reaches the model unless the user says so.
      onOpenChange={(open) => !open && !busy && void answer(false)}
      title={`Flagged ${WHAT[request.source ?? 'result']} from ${request.serverName}`}
      description={`${DESCRIBED[request.source ?? 'result'](request.toolName)} holds text that may try to steer the model. The model sees it only if you let it.`}
      className="flagged-content-dialog"
    >
      <ContentFlags flags={request.flags} what={`The ${WHAT[request.source ?? 'result']}`} />
      <details>
        <summary>The flagged text</summary>
        <pre className="flagged-content-preview" tabIndex={0} role="region" aria-label="The flagged text">
          <VisibleText text={request.preview} />
        </pre>
      </details>
      <Alert message={failure} tone="field-error" />
      <div className="actions">
        <button type="button" className="secondary" disabled={busy} onClick={() => void answer(true)}>
          Let the model see it
        </button>
        <button type="button" className="primary" data-autofocus disabled={busy} onClick={() => void answer(false)}>
          Withhold
        </button>
      </div>
    </Modal>
  );
}
