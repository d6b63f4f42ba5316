import { useState } from 'react';
import type { ConversationSummary } from '@contract';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { messageOf } from '../../ui/call-errors';
import { Alert } from '../../ui/Alert';

/** What the list's Rename and Delete do (ConversationList's props use these types). */
export type RenameConversation = (id: string, title: string) => Promise<unknown>;
export type DeleteConversation = (id: string) => Promise<unknown>;

/** Rename and Delete of a conversation (the conversation list's ⋯ menu), loaded when first asked for. */
export function RenameDialog({
  conversation,
  onOpenChange,
  onRename,
}: {
  conversation: ConversationSummary;
  onOpenChange(open: boolean): void;
  onRename: RenameConversation;
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

export function DeleteDialog({
  conversation,
  onOpenChange,
  onDelete,
}: {
  conversation: ConversationSummary;
  onOpenChange(open: boolean): void;
  onDelete: DeleteConversation;
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
      <Alert message={error} tone="field-error" />
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
