import { useId, useState } from 'react';
import { MAX_MESSAGE_CHARS } from '../../../src-preload/contract';
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
 * host has committed the message, so nothing typed is lost when sending fails. A draft longer than a
 * message may be is refused here, at the field, before anything is sent.
 */
export function Composer({ draft, onDraftChange, onSend, onStop, running }: ComposerProps) {
  const id = useId();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const tooLong = draft.length > MAX_MESSAGE_CHARS ? tooLongMessage(draft.length) : null;
  const canSend = draft.trim() !== '' && !tooLong && !running && !sending;
  const describedBy = [tooLong && `${id}-length`, failure && `${id}-error`].filter(Boolean).join(' ') || undefined;

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
        aria-describedby={describedBy}
        aria-invalid={tooLong ? true : undefined}
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
        {tooLong && (
          <p id={`${id}-length`} className="field-error">
            {tooLong}
          </p>
        )}
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

function tooLongMessage(length: number): string {
  return `Too long to send: ${length.toLocaleString('en-US')} characters; a message may have at most ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}.`;
}
