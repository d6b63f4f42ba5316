import { useState, type FormEvent } from 'react';
import type { RootView } from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { FolderCheck, FolderX, Pencil, Trash2 } from 'lucide-react';
import { Icon } from '../../ui/Icon';

export interface RootItemProps {
  root: RootView;
  /** Names of the servers that may see this folder. */
  sharedWith: string[];
  onRename(name: string): Promise<unknown>;
  onRemove(): Promise<unknown>;
  onReadOnly(readOnly: boolean): Promise<unknown>;
}

/** One folder: its name (editable), where it really is, whether it is there, who sees it, and Remove. */
export function RootItem({ root, sharedWith, onRename, onRemove, onReadOnly }: RootItemProps) {
  const calls = useTrackedCalls<'remove' | 'change'>();
  const [draft, setDraft] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (draft === null) return;
    setRenaming(true);
    try {
      await onRename(draft);
      setDraft(null);
    } catch (error) {
      setNameError(issuesOf(error)[0]?.message ?? messageOf(error));
    } finally {
      setRenaming(false);
    }
  };

  return (
    <li className="card root-item" aria-label={root.name} data-available={root.available}>
      {draft === null ? (
        <div className="server-card-head">
          <h3 className="server-name">{root.name}</h3>
          <span className={root.available ? 'status' : 'status root-missing'} data-status={root.available ? 'ready' : 'error'}>
            <Icon icon={root.available ? FolderCheck : FolderX} className="status-icon" />
            <span className="status-word">{root.available ? 'Available' : 'Unavailable'}</span>
          </span>
          <button type="button" className="secondary" onClick={() => setDraft(root.name)}>
            <Icon icon={Pencil} />
            Rename
          </button>
          <button type="button" className="danger" disabled={calls.isPending('remove')} onClick={() => void calls.run('remove', onRemove)}>
            <Icon icon={Trash2} />
            Remove
          </button>
        </div>
      ) : (
        <form className="form root-rename" aria-label={`Rename ${root.name}`} onSubmit={(e) => void submit(e)}>
          <Field label="Name" error={nameError}>
            {(c) => (
              <input
                {...c}
                value={draft}
                autoFocus
                onChange={(e) => {
                  setDraft(e.target.value);
                  setNameError(undefined);
                }}
              />
            )}
          </Field>
          <div className="actions">
            <button type="submit" disabled={renaming}>
              Save
            </button>
            <button type="button" className="secondary" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <dl className="facts">
        <dt>Path</dt>
        <dd>
          <code>{root.path}</code>
          {root.pickedPath && (
            <p className="hint root-note">
              You picked <code>{root.pickedPath}</code>; servers get its real location above (symlinks and “..” resolved).
            </p>
          )}
          {!root.available && <p className="hint root-note">The folder is missing. It is sent to no server until it is back.</p>}
        </dd>
        <dt>Shared with</dt>
        <dd>{sharedWith.length > 0 ? sharedWith.join(', ') : <span className="muted">No server</span>}</dd>
        <dt>Access</dt>
        <dd>
          <label className="root-read-only">
            <input
              type="checkbox"
              checked={root.readOnly}
              disabled={calls.isPending('change')}
              onChange={(e) => {
                const readOnly = e.target.checked;
                void calls.run('change', () => onReadOnly(readOnly));
              }}
            />
            Read only
          </label>
          <p className="hint root-note">
            {root.readOnly
              ? 'Sandboxed servers can read it but not write to it. Servers without a sandbox are not held to this.'
              : 'Servers it is shared with can read and write it.'}
          </p>
        </dd>
      </dl>
      {calls.failure && (
        <p role="alert" className="warning card-error">
          Could not {calls.failure.key} {root.name}: {calls.failure.message}
        </p>
      )}
    </li>
  );
}
