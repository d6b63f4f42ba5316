import { useEffect, useState } from 'react';
import type { SandboxSupport, ServerConfigView, ServerInput } from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { FormFooter } from '../../ui/FormFooter';
import { Modal } from '../../ui/Modal';
import { useDiscardGuard } from '../../ui/discard-guard';
import {
  draftFrom,
  errorsFromIssues,
  SIGN_IN_FIELDS,
  toServerInput,
  type EditDraft,
  type FormErrors,
  type ServerDraft,
} from './server-form-model';
import { LocalFields, RemoteFields, TransportChoice, type FocusField } from './ServerFormFields';
import { SignInFields } from './SignInFields';

export interface ServerFormDialogProps {
  open: boolean;
  /** The server to edit; absent to add a new one. */
  server?: ServerConfigView;
  onOpenChange(open: boolean): void;
  /** Resolves once the host saved; rejects with the host's error (field issues in `data`). */
  onSubmit(input: ServerInput): Promise<unknown>;
  /** Open with the cursor in this field (e.g. the command, when it could not be started). */
  focusField?: FocusField;
  /** Whether this machine can run servers in a sandbox (the host info says). */
  sandboxSupport?: SandboxSupport;
}

/** Add or edit a server (local command or remote URL). Closes only after the host confirmed; on failure the draft stays as typed. */
export function ServerFormDialog({ open, server, onOpenChange, onSubmit, focusField, sandboxSupport }: ServerFormDialogProps) {
  const [busy, setBusy] = useState(false);
  // Esc, a click outside and Cancel ask first when something was typed.
  const guard = useDiscardGuard(() => onOpenChange(false), server ? `Edit ${server.name}` : 'Add server');
  return (
    <Modal
      open={open}
      onOpenChange={(next) => (busy && !next ? undefined : next ? onOpenChange(true) : guard.requestClose())}
      title={server ? `Edit ${server.name}` : 'Add server'}
      className="modal-wide"
    >
      <ServerForm
        server={server}
        busy={busy}
        onBusyChange={setBusy}
        onSubmit={onSubmit}
        onCancel={guard.requestClose}
        onSaved={() => {
          guard.setDirty(false);
          onOpenChange(false);
        }}
        onDirtyChange={guard.setDirty}
        focus={focusField}
        sandboxSupport={sandboxSupport}
      />
      {guard.confirmation}
    </Modal>
  );
}

interface ServerFormProps {
  server?: ServerConfigView;
  busy: boolean;
  onBusyChange(busy: boolean): void;
  onSubmit(input: ServerInput): Promise<unknown>;
  onCancel(): void;
  onSaved(): void;
  onDirtyChange(dirty: boolean): void;
  focus?: FocusField;
  sandboxSupport?: SandboxSupport;
}

const ADVANCED: (keyof FormErrors)[] = ['initTimeoutMs', 'requestTimeoutMs', ...SIGN_IN_FIELDS];

function ServerForm({ server, busy, onBusyChange, onSubmit, onCancel, onSaved, onDirtyChange, focus, sandboxSupport }: ServerFormProps) {
  const [initial] = useState<ServerDraft>(() => draftFrom(server, sandboxSupport?.supported === true));
  const [draft, setDraft] = useState<ServerDraft>(initial);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const [errors, setErrors] = useState<FormErrors>({});
  // A server that signs in without the browser has its settings there: show them.
  const [advancedOpen, setAdvancedOpen] = useState(() => server?.transport === 'http' && server.signInMode !== 'browser');

  const edit: EditDraft = (patch, field) => {
    setDraft((d) => ({ ...d, ...patch }));
    if (field) setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };
  const show = (next: FormErrors) => {
    setErrors(next);
    if (ADVANCED.some((field) => next[field])) setAdvancedOpen(true);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = toServerInput(draft, server);
    if ('errors' in result) return show({ ...result.errors, form: 'Not saved — check the highlighted fields.' });
    setErrors({});
    onBusyChange(true);
    try {
      await onSubmit(result.input);
      onSaved();
    } catch (error) {
      const fieldErrors = errorsFromIssues(issuesOf(error), result.sent);
      const unplaced = fieldErrors.form;
      show({
        ...fieldErrors,
        form: `Not saved: ${unplaced ?? (Object.keys(fieldErrors).length > 0 ? 'check the highlighted fields.' : messageOf(error))}`,
      });
    } finally {
      onBusyChange(false);
    }
  };

  return (
    <form className="form server-form" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      <TransportChoice
        value={draft.transport}
        onChange={(transport) => {
          edit({ transport });
          // The other type's fields are gone from view; their errors would only confuse.
          setErrors({});
        }}
      />
      <Field label="Name" error={errors.name}>
        {(c) => <input {...c} value={draft.name} autoComplete="off" onChange={(e) => edit({ name: e.target.value }, 'name')} />}
      </Field>
      {draft.transport === 'http' ? (
        <RemoteFields draft={draft} errors={errors} stored={server} edit={edit} />
      ) : (
        <LocalFields draft={draft} errors={errors} stored={server} edit={edit} focus={focus} sandboxSupport={sandboxSupport} />
      )}
      <details open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
        <summary>Advanced</summary>
        {draft.transport === 'http' && <SignInFields draft={draft} errors={errors} stored={server} edit={edit} />}
        <SecondsField
          label="Initialize timeout (s)"
          error={errors.initTimeoutMs}
          value={draft.initTimeoutS}
          onChange={(text) => edit({ initTimeoutS: text }, 'initTimeoutMs')}
        />
        <SecondsField
          label="Request timeout (s)"
          error={errors.requestTimeoutMs}
          value={draft.requestTimeoutS}
          onChange={(text) => edit({ requestTimeoutS: text }, 'requestTimeoutMs')}
        />
        <label className="inline">
          <input type="checkbox" checked={draft.autoRestart} onChange={(e) => edit({ autoRestart: e.target.checked })} />
          Auto-restart
        </label>
        <label className="inline">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => edit({ enabled: e.target.checked })} />
          Starts with Patchbay
        </label>
      </details>
      <FormFooter error={errors.form} busy={busy} onCancel={onCancel}>
        <span role="status" className="save-state">
          {busy && 'Saving…'}
        </span>
      </FormFooter>
    </form>
  );
}

/** A whole number of seconds (the timeouts), with its field error. */
function SecondsField({ label, error, value, onChange }: { label: string; error?: string; value: string; onChange(text: string): void }) {
  return (
    <Field label={label} error={error}>
      {(c) => <input {...c} type="number" min={1} step={1} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}
