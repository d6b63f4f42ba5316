import { useEffect, useRef, useState } from 'react';
import { escapeHiddenChars, type HostApi, type InstallPlan, type InstallPreview, type InstallValues, type ServerView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { VisibleText } from '../../ui/VisibleText';
import { InstallFields } from './InstallFields';
import { InstallPreviewView } from './InstallPreviewView';
import './install.css';
import { Alert } from '../../ui/Alert';

export type InstallApi = Pick<HostApi, 'previewInstall' | 'install'>;

export interface InstallDialogProps {
  /** What to install; null keeps the dialog closed. */
  plan: InstallPlan | null;
  api: InstallApi;
  /** The open request this install answers (dismissed by the host once installed). */
  openRequestId?: string;
  /** The desktop app's folder picker, for folder settings. */
  pickFolder?: () => Promise<string | null>;
  onCancel(): void;
  onInstalled?(server: ServerView): void;
}

/** How long the form waits after a keystroke before asking the host for a new preview. */
const PREVIEW_DELAY_MS = 250;

/**
 * The one install dialog for registry entries, bundles and links: what it is, the settings it needs,
 * the exact command line or URL the host would store (recomputed by the host as the user types), and
 * "Start it now". Nothing is written before `Install`.
 */
export function InstallDialog({ plan, api, openRequestId, pickFolder, onCancel, onInstalled }: InstallDialogProps) {
  const title = plan ? `${plan.updates ? 'Update' : 'Install'} ${escapeHiddenChars(plan.about.title)}` : 'Install';
  return (
    <Modal open={plan !== null} onOpenChange={(open) => !open && onCancel()} title={title} className="modal-wide">
      {plan && (
        <InstallForm
          key={JSON.stringify(plan.source)}
          plan={plan}
          api={api}
          openRequestId={openRequestId}
          pickFolder={pickFolder}
          onCancel={onCancel}
          onInstalled={onInstalled}
        />
      )}
    </Modal>
  );
}

function InstallForm({ plan, api, openRequestId, pickFolder, onCancel, onInstalled }: InstallDialogProps & { plan: InstallPlan }) {
  const [name, setName] = useState(plan.suggestedName);
  const [values, setValues] = useState<InstallValues>({});
  const [start, setStart] = useState(plan.startByDefault);
  const [preview, setPreview] = useState<InstallPreview>(plan.preview);
  const [error, setError] = useState<string | null>(null);
  const [installing, setInstalling] = useState(false);
  const asked = useRef(0);
  const edited = useRef(false);

  useEffect(() => {
    if (!edited.current) return;
    const ask = ++asked.current;
    const timer = setTimeout(() => {
      api.previewInstall({ source: plan.source, name, values }).then(
        (next) => ask === asked.current && setPreview(next),
        (e: unknown) => ask === asked.current && setError(messageOf(e)),
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, plan.source, name, values]);

  const change = (id: string, value: string | number | boolean) => {
    edited.current = true;
    setError(null);
    setValues((current) => ({ ...current, [id]: value }));
  };

  const install = async (event: React.FormEvent) => {
    event.preventDefault();
    setInstalling(true);
    setError(null);
    try {
      const server = await api.install({ source: plan.source, name, values, start, ...(openRequestId ? { openRequestId } : {}) });
      onInstalled?.(server);
    } catch (e) {
      setError(messageOf(e));
      setInstalling(false);
    }
  };

  const { about } = plan;
  return (
    <form className="form install-form" onSubmit={install} noValidate>
      {about.description && <p>{about.description}</p>}
      <dl className="facts">
        {about.facts.map((fact) => (
          <div key={fact.label} className="fact">
            <dt>{fact.label}</dt>
            <dd>
              <VisibleText text={fact.value} />
            </dd>
          </div>
        ))}
      </dl>
      {about.warnings.map((warning) => (
        <p key={warning} role="note" className="warning">
          {warning}
        </p>
      ))}
      {plan.updates && <p className="hint">This replaces the installed copy used by “{plan.updates.name}”; its settings are kept.</p>}
      <Field label="Name" hint="How the server is listed in Patchbay.">
        {(control) => (
          <input
            {...control}
            value={name}
            onChange={(e) => {
              edited.current = true;
              setName(e.target.value);
            }}
          />
        )}
      </Field>
      <InstallFields fields={plan.fields} values={values} onChange={change} pickFolder={pickFolder} disabled={installing} />
      <InstallPreviewView preview={preview} />
      <label className="switch">
        <input type="checkbox" checked={start} onChange={(e) => setStart(e.target.checked)} />
        Start it now
      </label>
      <Alert message={error} tone="field-error" />
      <div className="actions">
        <button type="submit" className="primary" disabled={installing}>
          Install
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
        <span role="status" className="save-state">
          {installing && 'Installing…'}
        </span>
      </div>
    </form>
  );
}
