import { useState, type ReactNode } from 'react';
import { Modal } from './Modal';

export interface DiscardGuard {
  /** Asks to close: at once when nothing was changed, else after "Discard changes?" is answered Discard. */
  requestClose(): void;
  /** Whether the form holds changes the user has not saved. */
  setDirty(dirty: boolean): void;
  /** The confirmation, to render inside the guarded dialog (so it layers above it). */
  confirmation: ReactNode;
}

/**
 * Keeps what the user typed from vanishing on Esc, a click outside or Cancel: a form with changes asks
 * "Discard changes?" before it closes. `close` is the real close (the dialog's onOpenChange(false)).
 */
export function useDiscardGuard(close: () => void, what = 'this form'): DiscardGuard {
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const discard = () => {
    setAsking(false);
    setDirty(false);
    close();
  };
  return {
    requestClose: () => (dirty ? setAsking(true) : close()),
    setDirty,
    confirmation: (
      <Modal
        open={asking}
        onOpenChange={setAsking}
        role="alertdialog"
        title="Discard changes?"
        description={`What you typed in ${what} is not saved and will be lost.`}
      >
        <div className="actions">
          <button type="button" className="danger" onClick={discard}>
            Discard
          </button>
          <button type="button" data-autofocus onClick={() => setAsking(false)}>
            Keep editing
          </button>
        </div>
      </Modal>
    ),
  };
}
