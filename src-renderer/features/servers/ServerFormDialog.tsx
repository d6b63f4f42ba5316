import { useState } from 'react';
import type { ServerConfigView, ServerInput } from '../../../src-preload/contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { EnvironmentField } from './EnvironmentField';
import { draftFrom, errorsFromIssues, toServerInput, type FormErrors, type ServerDraft } from './server-form-model';

export interface ServerFormDialogProps {
  open: boolean;
  /** The server to edit; absent to add a new one. */
  server?: ServerConfigView;
  onOpenChange(open: boolean): void;
  /** Resolves once the host saved; rejects with the host's error (field issues in `data`). */
  onSubmit(input: ServerInput): Promise<unknown>;
}

/** Add or edit a stdio server. Closes only after the host confirmed; on failure the draft stays as typed. */
export function ServerFormDialog({ open, server, onOpenChange, onSubmit }: ServerFormDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}
      title={server ? `Edit ${server.name}` : 'Add server'}
      className="modal-wide"
    >
      <ServerForm server={server} busy={busy} onBusyChange={setBusy} onSubmit={onSubmit} onClose={() => onOpenChange(false)} />
    </Modal>
  );
}

interface ServerFormProps {
  server?: ServerConfigView;
  busy: boolean;
  onBusyChange(busy: boolean): void;
  onSubmit(input: ServerInput): Promise<unknown>;
  onClose(): void;
}

const ADVANCED: (keyof FormErrors)[] = ['initTimeoutMs', 'requestTimeoutMs'];

function ServerForm({ server, busy, onBusyChange, onSubmit, onClose }: ServerFormProps) {
  const stored = server?.env ?? [];
  const [draft, setDraft] = useState<ServerDraft>(() => draftFrom(server));
  const [errors, setErrors] = useState<FormErrors>({});
  const [advancedOpen, setAdvancedOpen] = useState(false);

  const edit = (patch: Partial<ServerDraft>, field?: keyof FormErrors) => {
    setDraft((d) => ({ ...d, ...patch }));
    if (field) setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };
  const show = (next: FormErrors) => {
    setErrors(next);
    if (ADVANCED.some((field) => next[field])) setAdvancedOpen(true);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = toServerInput(draft, stored);
    if ('errors' in result) return show({ ...result.errors, form: 'Not saved — check the highlighted fields.' });
    setErrors({});
    onBusyChange(true);
    try {
      await onSubmit(result.input);
      onClose();
    } catch (error) {
      const fieldErrors = errorsFromIssues(issuesOf(error), result.envLineOf, result.input.env ?? []);
      const unplaced = fieldErrors.form;
      show({ ...fieldErrors, form: `Not saved: ${unplaced ?? (Object.keys(fieldErrors).length > 0 ? 'check the highlighted fields.' : messageOf(error))}` });
    } finally {
      onBusyChange(false);
    }
  };

  return (
    <form className="form server-form" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      <Field label="Name" error={errors.name}>
        {(c) => <input {...c} value={draft.name} autoComplete="off" onChange={(e) => edit({ name: e.target.value }, 'name')} />}
      </Field>
      <Field label="Command" error={errors.command} hint="The program to run, e.g. npx, uvx, node or a full path.">
        {(c) => (
          <input {...c} value={draft.command} spellCheck={false} autoComplete="off" onChange={(e) => edit({ command: e.target.value }, 'command')} />
        )}
      </Field>
      <Field label="Arguments" error={errors.args} hint="One argument per line; empty lines are left out. No quoting needed.">
        {(c) => <textarea {...c} rows={3} spellCheck={false} value={draft.args} onChange={(e) => edit({ args: e.target.value }, 'args')} />}
      </Field>
      <EnvironmentField
        draft={draft}
        stored={stored}
        error={errors.env}
        onTextChange={(env) => edit({ env }, 'env')}
        onSecretChange={(key, secret) => edit({ secretChoices: { ...draft.secretChoices, [key]: secret } }, 'env')}
      />
      <Field label="Working directory" error={errors.cwd} hint="Empty = your home directory.">
        {(c) => <input {...c} value={draft.cwd} spellCheck={false} autoComplete="off" onChange={(e) => edit({ cwd: e.target.value }, 'cwd')} />}
      </Field>
      <details open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
        <summary>Advanced</summary>
        <Field label="Initialize timeout (s)" error={errors.initTimeoutMs}>
          {(c) => (
            <input {...c} type="number" min={1} step={1} value={draft.initTimeoutS} onChange={(e) => edit({ initTimeoutS: e.target.value }, 'initTimeoutMs')} />
          )}
        </Field>
        <Field label="Request timeout (s)" error={errors.requestTimeoutMs}>
          {(c) => (
            <input {...c} type="number" min={1} step={1} value={draft.requestTimeoutS} onChange={(e) => edit({ requestTimeoutS: e.target.value }, 'requestTimeoutMs')} />
          )}
        </Field>
        <label className="inline">
          <input type="checkbox" checked={draft.autoRestart} onChange={(e) => edit({ autoRestart: e.target.checked })} />
          Auto-restart
        </label>
        <label className="inline">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => edit({ enabled: e.target.checked })} />
          Enabled
        </label>
      </details>
      {errors.form && (
        <p role="alert" className="field-error">
          {errors.form}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" className="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <span role="status" className="save-state">
          {busy && 'Saving…'}
        </span>
      </div>
    </form>
  );
}
