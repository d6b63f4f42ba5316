/**
 * What an app asks that only the user may do: send a message to the model in this conversation, or
 * open a link. Shown in the app's card with the app's exact words; nothing happens until a click, and a
 * pointer click that lands while the buttons have just appeared or moved (an app resizing itself can
 * move them under the pointer) is ignored: see `useSettledClicks`.
 */
import { useState } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { useSettledClicks } from '../../ui/use-settled-clicks';
import { useChatActions } from '../chat/chat-actions';
import type { AppAsk } from './AppFrame';

export interface PendingAsk {
  id: number;
  ask: AppAsk;
  /** The user's answer: true once done. */
  settle(agreed: boolean): void;
}

export function AppAskPrompt({
  pending,
  serverName,
  conversationId,
}: {
  pending: PendingAsk;
  serverName: string;
  conversationId?: string;
}) {
  const api = useAppStore((s) => s.api);
  const chat = useChatActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { ref, settling, guard } = useSettledClicks<HTMLDivElement>();
  const { ask, settle } = pending;
  // Not `disabled` (that would move focus away and flicker while scrolling): said, and clicks ignored.
  const waiting = settling || undefined;
  const who = `The app of ${serverName}`;

  if (ask.kind === 'link') {
    const web = /^https?:\/\//i.test(ask.url);
    return (
      <div className="app-ask" role="group" aria-label={`${who} wants to open a link`}>
        <p>
          {who} wants to open a link: <code>{ask.url}</code>
        </p>
        {!web && <p className="muted">Patchbay opens only web (http and https) links.</p>}
        <div className="app-ask-actions" ref={ref}>
          {web && (
            <button
              type="button"
              aria-disabled={waiting}
              onClick={guard(() => {
                window.open(ask.url, '_blank', 'noopener,noreferrer');
                settle(true);
              })}
            >
              Open link
            </button>
          )}
          <button type="button" aria-disabled={waiting} onClick={guard(() => settle(false))}>
            Dismiss
          </button>
        </div>
      </div>
    );
  }

  // No chat here: a new conversation with the message in its box, for the user to read and send.
  const openInChat = async () => {
    setBusy(true);
    setError(null);
    try {
      const conversation = await chat.newConversation();
      chat.setDraft(conversation.id, ask.text);
      settle(true);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  const send = async () => {
    if (!conversationId) return;
    setBusy(true);
    setError(null);
    try {
      await api.sendMessage({ conversationId, text: ask.text });
      settle(true);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  return (
    <div className="app-ask" role="group" aria-label={`${who} wants to send a message`}>
      <p>{who} wants to send this message to the model, as yours:</p>
      <blockquote className="app-ask-text">{ask.text}</blockquote>
      {!conversationId && (
        <p className="muted">
          Apps can send messages only from a chat. The app was told it was not sent; open a chat with it to send it yourself.
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
      <div className="app-ask-actions" ref={ref}>
        {conversationId ? (
          <button type="button" disabled={busy} aria-disabled={waiting} onClick={guard(() => void send())}>
            Send message
          </button>
        ) : (
          <button type="button" disabled={busy} aria-disabled={waiting} onClick={guard(() => void openInChat())}>
            Open in chat
          </button>
        )}
        <button type="button" disabled={busy} aria-disabled={waiting} onClick={guard(() => settle(false))}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
