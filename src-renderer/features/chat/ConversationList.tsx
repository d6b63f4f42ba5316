import { useState } from 'react';
import type { ConversationSummary } from '../../../src-preload/contract';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { RelativeTime } from '../../ui/RelativeTime';
import { messageOf } from '../../ui/call-errors';

export interface ConversationListProps {
  /** Most recently updated first. */
  conversations: ConversationSummary[];
  activeId: string | null;
  onSelect(id: string): void;
  onNew(): void;
  onRename(id: string, title: string): Promise<unknown>;
  onDelete(id: string): Promise<unknown>;
}

type Dialog = { kind: 'rename'; conversation: ConversationSummary } | { kind: 'delete'; conversation: ConversationSummary } | null;

/** The conversations: pick one, start a new one, rename or delete (after asking). */
export function ConversationList({ conversations, activeId, onSelect, onNew, onRename, onDelete }: ConversationListProps) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = (open: boolean) => !open && setDialog(null);
  return (
    <nav className="conversation-list" aria-label="Conversations">
      <button type="button" className="button new-conversation" onClick={onNew}>
        New conversation
      </button>
      {conversations.length === 0 ? (
        <p className="muted">No conversations yet.</p>
      ) : (
        <ul>
          {conversations.map((c) => (
            <li key={c.id} className="conversation-item" aria-current={c.id === activeId ? 'true' : undefined}>
              <button type="button" className="conversation-open" onClick={() => onSelect(c.id)}>
                <span className="conversation-title">{c.title}</span>
                <span className="muted conversation-meta">{c.turn === 'running' ? 'answering…' : <RelativeTime iso={c.updatedAt} />}</span>
              </button>
              <span className="conversation-actions">
                <button
                  type="button"
                  className="link"
                  aria-label={`Rename ${c.title}`}
                  onClick={() => setDialog({ kind: 'rename', conversation: c })}
                >
                  Rename
                </button>
                <button
                  type="button"
                  className="link danger-link"
                  aria-label={`Delete ${c.title}`}
                  onClick={() => setDialog({ kind: 'delete', conversation: c })}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {dialog?.kind === 'rename' && <RenameDialog conversation={dialog.conversation} onOpenChange={close} onRename={onRename} />}
      {dialog?.kind === 'delete' && <DeleteDialog conversation={dialog.conversation} onOpenChange={close} onDelete={onDelete} />}
    </nav>
  );
}

function RenameDialog({
  conversation,
  onOpenChange,
  onRename,
}: {
  conversation: ConversationSummary;
  onOpenChange(open: boolean): void;
  onRename: ConversationListProps['onRename'];
}) {
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string | undefined>();
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      await onRename(conversation.id, title.trim());
      onOpenChange(false);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Modal open onOpenChange={onOpenChange} title="Rename conversation">
      <form className="form" onSubmit={save} noValidate>
        <Field label="Title" error={error}>
          {(control) => <input {...control} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />}
        </Field>
        <div className="actions">
          <button type="submit">Save</button>
          <button type="button" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

function DeleteDialog({
  conversation,
  onOpenChange,
  onDelete,
}: {
  conversation: ConversationSummary;
  onOpenChange(open: boolean): void;
  onDelete: ConversationListProps['onDelete'];
}) {
  const [error, setError] = useState<string | undefined>();
  return (
    <Modal
      open
      onOpenChange={onOpenChange}
      title="Delete conversation?"
      role="alertdialog"
      description={`“${conversation.title}” and its ${conversation.messageCount} messages will be deleted for good.`}
    >
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="danger"
          onClick={() =>
            void onDelete(conversation.id).then(
              () => onOpenChange(false),
              (e: unknown) => setError(messageOf(e)),
            )
          }
        >
          Delete
        </button>
        <button type="button" onClick={() => onOpenChange(false)}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
