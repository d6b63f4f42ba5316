import { useId, useState } from 'react';
import { messageOf } from '../../ui/call-errors';

export interface ComposerProps {
  draft: string;
  onDraftChange(text: string): void;
  /** Resolves once the host committed the message; rejects with its error (the draft stays). */
  onSend(text: string): Promise<unknown>;
  onStop(): Promise<unknown>;
  /** A turn runs: Send waits, Stop shows. */
  running: boolean;
}

/**
 * The message box. Enter sends, Shift+Enter starts a new line. The draft is cleared only once the
 * host has committed the message, so nothing typed is lost when sending fails.
 */
export function Composer({ draft, onDraftChange, onSend, onStop, running }: ComposerProps) {
  const id = useId();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const canSend = draft.trim() !== '' && !running && !sending;

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    setFailure(null);
    try {
      await onSend(draft.trim());
      onDraftChange('');
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Message
      </label>
      <textarea
        id={id}
        rows={3}
        value={draft}
        placeholder="Message the model… (Enter sends, Shift+Enter for a new line)"
        aria-describedby={failure ? `${id}-error` : undefined}
        onChange={(e) => {
          onDraftChange(e.target.value);
          setFailure(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="composer-actions">
        {failure && (
          <p id={`${id}-error`} role="alert" className="field-error">
            Not sent: {failure}
          </p>
        )}
        {running && (
          <button type="button" className="danger" onClick={() => void onStop()}>
            Stop
          </button>
        )}
        <button type="submit" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
