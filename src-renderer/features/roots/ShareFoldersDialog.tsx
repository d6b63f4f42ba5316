import { useState } from 'react';
import type { RootsConsentRequest, RootView } from '../../../src-preload/contract';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { FolderChoice, type FolderSelection } from './FolderChoice';
import './roots.css';

/** The user's answer: `rootIds` omitted with `share` means every folder, including later ones. */
export interface ShareAnswer {
  share: boolean;
  rootIds?: string[];
}

export interface ShareFoldersDialogProps {
  request: RootsConsentRequest;
  roots: RootView[];
  /** Resolves once the host took the answer; a rejection is shown in the dialog. */
  onAnswer(answer: ShareAnswer): Promise<unknown>;
}

/**
 * "Share folders": a server asked for roots before the user decided what it may see. Defaults to the
 * folders available now (not future ones). Closing the dialog any other way is "Don't share": when
 * in doubt, nothing is shared.
 */
export function ShareFoldersDialog({ request, roots, onAnswer }: ShareFoldersDialogProps) {
  const [selection, setSelection] = useState<FolderSelection>(() => ({
    mode: 'subset',
    rootIds: roots.filter((r) => r.available).map((r) => r.id),
  }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const answer = async (value: ShareAnswer) => {
    setBusy(true);
    setError(null);
    try {
      await onAnswer(value);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  const share = () => void answer(selection.mode === 'all' ? { share: true } : { share: true, rootIds: selection.rootIds });
  const decline = () => void answer({ share: false });
  const nothingChosen = selection.mode === 'subset' && selection.rootIds.length === 0;

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && decline()}
      title="Share folders"
      className="roots-share"
      description={
        <>
          <strong>{request.serverName}</strong> asks which of your folders it may see. It will see only the ones you share; you can change
          this later on its server page.
        </>
      }
    >
      <FolderChoice legend={`Folders for ${request.serverName}`} roots={roots} value={selection} onChange={setSelection} disabled={busy} />
      <p className="hint">Not answered by {new Date(request.expiresAt).toLocaleTimeString()}, nothing is shared.</p>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={share} disabled={busy || nothingChosen}>
          Share
        </button>
        <button type="button" className="secondary" onClick={decline} disabled={busy}>
          Don&apos;t share
        </button>
      </div>
    </Modal>
  );
}
