import { useState } from 'react';
import { expandUriTemplate, type ResourceReadView, type ResourceTemplateView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { ArgumentField } from './ArgumentField';
import { ReadResult } from './ReadResult';
import { Alert } from '../../ui/Alert';

export interface TemplateFormProps {
  template: ResourceTemplateView;
  /** The server declares `completions`: the fields suggest values. */
  completions: boolean;
  /** Instead of reading: use the expanded URI (the chat's Attach), with this button label. */
  use?: { label: string; onUse(uri: string): Promise<unknown> };
}

/**
 * A resource template as a small form: one field per variable (labelled by its name, with
 * suggestions from the server), the URI it expands to as the user types, and `Read`.
 */
export function TemplateForm({ template, completions, use }: TemplateFormProps) {
  const api = useAppStore((s) => s.api);
  const [values, setValues] = useState<Record<string, string>>({});
  const [read, setRead] = useState<ResourceReadView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missing = template.variables.filter((v) => v.required && (values[v.name] ?? '').trim() === '').map((v) => v.name);
  const uri = template.problem ? '' : expandUriTemplate(template.uriTemplate, values);

  const submit = async () => {
    if (missing.length > 0) return;
    setBusy(true);
    setError(null);
    try {
      if (use) await use.onUse(uri);
      else setRead(await api.readResource({ serverId: template.serverId, uri, purpose: 'template' }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="resource-detail" aria-labelledby="template-detail-name">
      <h3 id="template-detail-name">{template.name}</h3>
      {template.title && <p className="tool-title">{template.title}</p>}
      {template.description && <p>{template.description}</p>}
      <p>
        <span className="muted">Template </span>
        <code>{template.uriTemplate}</code>
        {template.mimeType && <span className="muted"> · {template.mimeType}</span>}
      </p>
      {template.problem ? (
        <Alert message={`${template.problem} It cannot be filled in.`} />
      ) : (
        <form
          aria-label={`Read from template ${template.name}`}
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {template.variables.map((variable) => (
            <ArgumentField
              key={variable.name}
              serverId={template.serverId}
              completionRef={{ type: 'resource', uri: template.uriTemplate }}
              name={variable.name}
              required={variable.required}
              value={values[variable.name] ?? ''}
              values={values}
              onChange={(value) => setValues((current) => ({ ...current, [variable.name]: value }))}
              completions={completions}
            />
          ))}
          <p className="template-uri">
            <span className="muted">URI </span>
            <code data-testid="expanded-uri">{uri}</code>
          </p>
          <div className="button-row">
            <button
              type="submit"
              disabled={busy || missing.length > 0}
              aria-describedby={missing.length > 0 ? 'template-missing' : undefined}
            >
              {busy ? 'Reading…' : (use?.label ?? 'Read')}
            </button>
            {missing.length > 0 && (
              <span id="template-missing" className="muted">
                Fill in {missing.join(', ')} first.
              </span>
            )}
          </div>
        </form>
      )}
      <Alert message={error} />
      {read && <ReadResult read={read} />}
    </article>
  );
}
