import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { MAX_MESSAGE_CHARS } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { SendHorizontal, Square } from 'lucide-react';
import { Icon } from '../../ui/Icon';
import { Alert } from '../../ui/Alert';

/** A prompt `/` offers: "server: prompt". */
export interface SlashPrompt {
  id: string;
  label: string;
  description?: string;
}

export interface ComposerProps {
  draft: string;
  onDraftChange(text: string): void;
  /** Resolves once the host committed the message; rejects with its error (the draft stays). */
  onSend(text: string): Promise<unknown>;
  onStop(): Promise<unknown>;
  /** A turn runs: Send waits, Stop shows. */
  running: boolean;
  /** Shown above the box: what goes with the message besides its text (attachments, a chosen prompt). */
  above?: ReactNode;
  /** Something besides text goes with the message: Send works without text. */
  hasContext?: boolean;
  /** The message cannot be sent as it stands (over its budget…): Send is disabled; `above` says why. */
  blocked?: string;
  /** Controls beside Send (the Attach button). */
  tools?: ReactNode;
  /** The prompts `/` at the start of the message lists, and what choosing one does. */
  slashPrompts?: readonly SlashPrompt[];
  onSlashPrompt?(id: string): void;
}

/**
 * The message box. Enter sends, Shift+Enter starts a new line. The draft is cleared only once the
 * host has committed the message, so nothing typed is lost when sending fails. A draft longer than a
 * message may be is refused here, at the field, before anything is sent.
 */
export function Composer({
  draft,
  onDraftChange,
  onSend,
  onStop,
  running,
  above,
  hasContext = false,
  blocked,
  tools,
  slashPrompts,
  onSlashPrompt,
}: ComposerProps) {
  const id = useId();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const tooLong = draft.length > MAX_MESSAGE_CHARS ? tooLongMessage(draft.length) : null;
  const canSend = (draft.trim() !== '' || hasContext) && !tooLong && !running && !sending && !blocked;
  const describedBy = [tooLong && `${id}-length`, failure && `${id}-error`].filter(Boolean).join(' ') || undefined;

  // `/` at the start of the message (and nothing but the prompt's name after it) lists the prompts.
  const slash = /^\/(\S*)$/.exec(draft);
  const query = slash?.[1].toLowerCase() ?? '';
  const matches = slash && slashPrompts && dismissed !== draft ? slashPrompts.filter((p) => p.label.toLowerCase().includes(query)) : [];
  const menuOpen = slash !== null && slashPrompts !== undefined && dismissed !== draft;
  const activeIndex = Math.min(active, matches.length - 1);
  const menuId = `${id}-prompts`;
  const optionId = (i: number) => `${menuId}-${i}`;
  const choose = (prompt: SlashPrompt) => {
    onDraftChange('');
    setActive(0);
    onSlashPrompt?.(prompt.id);
  };
  const onMenuKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!menuOpen) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = matches.length;
      if (n > 0) setActive((i) => (e.key === 'ArrowDown' ? (Math.min(i, n - 1) + 1) % n : (Math.min(i, n - 1) - 1 + n) % n));
      return true;
    }
    if ((e.key === 'Enter' || e.key === 'Tab') && matches.length > 0) {
      e.preventDefault();
      choose(matches[Math.max(0, activeIndex)]);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setDismissed(draft);
      return true;
    }
    return false;
  };

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
      {above}
      {menuOpen && (
        <ul id={menuId} role="listbox" aria-label="Prompts" className="slash-menu">
          {matches.length === 0 && (
            <li role="option" aria-selected="false" aria-disabled="true" className="muted">
              {slashPrompts.length === 0 ? 'The servers of this conversation offer no prompts.' : 'No prompt matches.'}
            </li>
          )}
          {matches.map((prompt, i) => (
            <li
              key={prompt.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === activeIndex}
              title={prompt.description}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(prompt)}
            >
              {prompt.label}
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={id} className="visually-hidden">
        Message
      </label>
      <textarea
        id={id}
        // The shortcuts find it by this: `/` focuses it, Escape in it stops a running answer.
        data-message-box=""
        rows={3}
        value={draft}
        placeholder="Message the model… (Enter sends, Shift+Enter for a new line, / for a server’s prompts)"
        aria-describedby={describedBy}
        aria-invalid={tooLong ? true : undefined}
        aria-controls={menuOpen ? menuId : undefined}
        aria-activedescendant={menuOpen && activeIndex >= 0 ? optionId(activeIndex) : undefined}
        onChange={(e) => {
          onDraftChange(e.target.value);
          setFailure(null);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (onMenuKey(e)) return;
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="composer-actions">
        {tools}
        {tooLong && (
          <p id={`${id}-length`} className="field-error">
            {tooLong}
          </p>
        )}
        <Alert id={`${id}-error`} message={failure} prefix="Not sent:" tone="field-error" />
        {running && (
          <button type="button" className="danger" onClick={() => void onStop()}>
            <Icon icon={Square} />
            Stop
          </button>
        )}
        <button type="submit" disabled={!canSend}>
          <Icon icon={SendHorizontal} />
          Send
        </button>
      </div>
    </form>
  );
}

function tooLongMessage(length: number): string {
  return `Too long to send: ${length.toLocaleString('en-US')} characters; a message may have at most ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}.`;
}
