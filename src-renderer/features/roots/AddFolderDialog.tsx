import { useState, type FormEvent } from 'react';
import type { FolderListing } from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { FolderBrowser } from './FolderBrowser';

export interface AddFolderDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Must be stable (the browser reloads when it changes). */
  listFolders(path: string): Promise<FolderListing>;
  /** Adds the folder; rejects with the host's field error when it cannot be a root. */
  onAdd(path: string): Promise<unknown>;
  /** The dialog's title and its form's name (default `Add folder`: the Roots page's). */
  title?: string;
  /** What the folder is for (default: where it is). */
  description?: string;
  /** The submit button's words (default `Add`). */
  submitLabel?: string;
  /** The path the field starts with when the dialog opens (a folder already chosen). */
  initialPath?: string;
}

/**
 * Web mode's "Add folder": the browser cannot open a native picker on the host's disk, so the user
 * types a path on the host, or walks there with a small folder browser the host serves. Also the
 * skills folder's chooser (Settings › Skills), with its own title and button.
 */
export function AddFolderDialog({
  open,
  onOpenChange,
  listFolders,
  onAdd,
  title = 'Add folder',
  description = 'A folder on the computer running Patchbay.',
  submitLabel = 'Add',
  initialPath = '',
}: AddFolderDialogProps) {
  const [path, setPath] = useState(initialPath);
  const [browsing, setBrowsing] = useState(initialPath);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setPath(initialPath);
      setBrowsing(initialPath);
      setError(undefined);
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onAdd(path);
      close(false);
    } catch (failure) {
      setError(issuesOf(failure)[0]?.message ?? messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const openFolder = (folder: string) => {
    setPath(folder);
    setBrowsing(folder);
    setError(undefined);
  };

  return (
    <Modal open={open} onOpenChange={close} title={title} description={description} className="modal-wide">
      <form className="form" aria-label={title} onSubmit={(e) => void submit(e)}>
        <Field
          label="Folder path"
          error={error}
          hint="A full path, or ~/ for your home folder. Symlinks are resolved to their real location."
        >
          {(c) => (
            <input
              {...c}
              value={path}
              spellCheck={false}
              autoComplete="off"
              placeholder="/home/you/Projects"
              onChange={(e) => {
                setPath(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" disabled={busy || path.trim() === ''}>
            {submitLabel}
          </button>
          <button type="button" className="secondary" onClick={() => setBrowsing(path.trim())}>
            Browse here
          </button>
          <button type="button" className="secondary" onClick={() => close(false)}>
            Cancel
          </button>
        </div>
      </form>
      {open && <FolderBrowser path={browsing} listFolders={listFolders} onOpen={openFolder} />}
    </Modal>
  );
}
