import { useState } from 'react';
import type { RootsConsentRequest, RootView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { FolderChoice, type FolderSelection } from './FolderChoice';
import './roots.css';
import { Alert } from '../../ui/Alert';

/** The user's answer: `rootIds` omitted with `share` means every folder, including later ones. */
export interface ShareAnswer {
  share: boolean;
  rootIds?: string[];
}

export interface ShareFoldersDialogProps {
  /** The open questions of one group (servers that asked together), oldest first; more may join while it is open. */
  requests: RootsConsentRequest[];
  roots: RootView[];
  /** Answers one server's question; resolves once the host took it (a rejection is shown in the dialog). */
  onAnswer(id: string, answer: ShareAnswer): Promise<unknown>;
  /** Answers every question of the group still open the same way. */
  onAnswerAll(answer: ShareAnswer): Promise<unknown>;
  /** Names of the asking servers that run in a sandbox: sharing restarts them (said before they are). */
  sandboxed?: string[];
}

type RowState = 'shared' | 'declined';

/**
 * "Share folders": servers asked for roots before the user decided what they may see — one server,
 * or several at once (one folder added makes every running server ask): one dialog lists them all,
 * with a choice per server and one for all. Defaults to the folders available now (not future ones).
 * Closing the dialog any other way is "Don't share" for those still asking: when in doubt, nothing is
 * shared.
 */
export function ShareFoldersDialog({ requests, roots, onAnswer, onAnswerAll, sandboxed = [] }: ShareFoldersDialogProps) {
  const [selection, setSelection] = useState<FolderSelection>(() => ({
    mode: 'subset',
    rootIds: roots.filter((r) => r.available).map((r) => r.id),
  }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Every server that asked while the dialog was open (answered ones stay listed, with their answer).
  const [seen, setSeen] = useState<RootsConsentRequest[]>(requests);
  const [answered, setAnswered] = useState<Record<string, RowState>>({});
  const newcomers = requests.filter((r) => !seen.some((s) => s.id === r.id));
  if (newcomers.length > 0) setSeen([...seen, ...newcomers]);

  const open = new Set(requests.map((r) => r.id));
  const waiting = seen.filter((r) => open.has(r.id) && !answered[r.id]);
  const several = seen.length > 1;
  const shareAnswer = (): ShareAnswer => (selection.mode === 'all' ? { share: true } : { share: true, rootIds: selection.rootIds });

  /** Runs an answer; the buttons stay disabled after a final one until the host says the questions settled. */
  const call = async (what: () => Promise<unknown>, final: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await what();
      if (!final) setBusy(false);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
      throw failure;
    }
  };
  const answerOne = (request: RootsConsentRequest, share: boolean) => {
    // Shown at once (the host settles the question before it answers the call); taken back if it fails.
    setAnswered((a) => ({ ...a, [request.id]: share ? 'shared' : 'declined' }));
    const final = waiting.length === 1;
    call(() => onAnswer(request.id, share ? shareAnswer() : { share: false }), final).catch(() =>
      setAnswered(({ [request.id]: _undone, ...rest }) => rest),
    );
  };
  // One server: its own question (as ever). Several: every one still asking, together.
  const answerRest = (share: boolean) => {
    const answer = share ? shareAnswer() : { share: false };
    const only = !several ? waiting[0] : undefined;
    call(() => (only ? onAnswer(only.id, answer) : onAnswerAll(answer)), true).catch(() => undefined);
  };
  const nothingChosen = selection.mode === 'subset' && selection.rootIds.length === 0;
  const expiresAt = waiting.reduce((soonest, r) => (r.expiresAt < soonest ? r.expiresAt : soonest), waiting[0]?.expiresAt ?? '');
  const only = seen[0];

  return (
    <Modal
      open
      onOpenChange={(isOpen) => !isOpen && !busy && answerRest(false)}
      title="Share folders"
      className="roots-share"
      description={
        several ? (
          <>
            {seen.length} servers ask which of your folders they may see. Each sees only what you share with it; you can change this later
            on its server page.
          </>
        ) : (
          <>
            <strong>{only?.serverName}</strong> asks which of your folders it may see. It will see only the ones you share; you can change
            this later on its server page.
          </>
        )
      }
    >
      <FolderChoice
        legend={several ? 'Folders to share' : `Folders for ${only?.serverName ?? ''}`}
        roots={roots}
        value={selection}
        onChange={setSelection}
        disabled={busy}
      />
      {several && (
        <ul className="roots-askers" aria-label={`Servers asking (${seen.length})`}>
          {seen.map((request) => {
            const state = answered[request.id] ?? (open.has(request.id) ? undefined : 'gone');
            return (
              <li key={request.id}>
                <span className="roots-asker-name">{request.serverName}</span>
                {state === undefined ? (
                  <span className="actions">
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Share with ${request.serverName}`}
                      disabled={busy || nothingChosen}
                      onClick={() => answerOne(request, true)}
                    >
                      Share
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Don't share with ${request.serverName}`}
                      disabled={busy}
                      onClick={() => answerOne(request, false)}
                    >
                      Don&apos;t share
                    </button>
                  </span>
                ) : (
                  <span className="muted">{state === 'shared' ? 'Shared' : state === 'declined' ? 'Not shared' : 'No longer asking'}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {sandboxed.length > 0 && (
        <p className="hint">
          {sandboxed.map((name) => `“${name}”`).join(', ')} {sandboxed.length === 1 ? 'runs' : 'run'} in a sandbox: Share restarts{' '}
          {sandboxed.length === 1 ? 'it' : 'them'} so {sandboxed.length === 1 ? 'its sandbox holds' : 'their sandboxes hold'} the folders.
        </p>
      )}
      {expiresAt && <p className="hint">Not answered by {new Date(expiresAt).toLocaleTimeString()}, nothing is shared.</p>}
      <Alert message={error} tone="field-error" />
      {/* Whom the two buttons answer, as a sentence of its own (not words trailing after them). */}
      {several && waiting.length > 0 && (
        <p className="hint share-folders-scope">
          Share and Don’t share answer{' '}
          {waiting.length === seen.length ? `all ${waiting.length} servers asking` : `the ${waiting.length} servers still asking`}.
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={() => answerRest(true)} disabled={busy || nothingChosen || waiting.length === 0}>
          Share
        </button>
        <button type="button" className="secondary" onClick={() => answerRest(false)} disabled={busy || waiting.length === 0}>
          Don&apos;t share
        </button>
      </div>
    </Modal>
  );
}
