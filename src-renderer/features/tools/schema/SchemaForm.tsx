import { useMemo, useState, type FormEvent } from 'react';
import type { JsonObject } from '@contract';
import { issuesOf, messageOf } from '../../../ui/call-errors';
import { draftToValue, initialDraft, issuesByPath, pathKey, updateDraft, type Draft, type DraftIssue, type Path } from './schema-draft';
import { analyzeSchema } from './schema-model';
import { SchemaField } from './SchemaField';
import { Play } from 'lucide-react';
import { Icon } from '../../../ui/Icon';
import { Alert } from '../../../ui/Alert';

export interface SchemaFormProps {
  /** The tool's input schema. Remount (key) the form when it changes. */
  schema: JsonObject;
  /** A label for the form, e.g. "Run get-sum". */
  label: string;
  busy?: boolean;
  /** Sends the arguments. A rejection carrying field issues (`args.…`) is shown next to the fields. */
  onRun(args: JsonObject): Promise<unknown>;
}

/** Field issues from the host address `args.<path>`: strip the prefix. */
function hostIssues(error: unknown): DraftIssue[] {
  return issuesOf(error)
    .filter((issue) => issue.path[0] === 'args')
    .map((issue) => ({
      path: issue.path.slice(1).map((p) => (typeof p === 'string' && /^\d+$/.test(p) ? Number(p) : p)),
      message: issue.message,
    }));
}

/** The Run form generated from a tool's input schema (see schema-model.ts for what it can draw). */
export function SchemaForm({ schema, label, busy, onRun }: SchemaFormProps) {
  const model = useMemo(() => analyzeSchema(schema), [schema]);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(model));
  const [issues, setIssues] = useState<DraftIssue[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = issuesByPath(issues);

  const change = (path: Path, update: (old: Draft) => Draft) => {
    setDraft((current) => updateDraft(current, path, update));
    // A field being edited loses its complaint (and so do the fields inside it).
    const key = pathKey(path);
    setIssues((current) => current.filter((issue) => !pathKey(issue.path).startsWith(key)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: DraftIssue[] = [];
    const value = draftToValue(model, draft, [], found, true);
    setIssues(found);
    if (found.length > 0) return;
    try {
      await onRun((value ?? {}) as JsonObject);
    } catch (error) {
      const fields = hostIssues(error);
      const placed = fields.filter((issue) => issue.path.length > 0);
      setIssues(placed);
      if (placed.length === 0 || placed.length < fields.length) setFailure(messageOf(error));
    }
  };

  const rootError = errors.get('');
  return (
    <form aria-label={label} className="form schema-form" onSubmit={(e) => void submit(e)} noValidate>
      {model.kind === 'object' && draft.kind === 'object' ? (
        model.properties.length === 0 ? (
          <p className="muted">This tool takes no arguments.</p>
        ) : (
          model.properties.map((p) => (
            <SchemaField
              key={p.name}
              name={p.name}
              model={p.model}
              draft={draft.fields[p.name]}
              path={[p.name]}
              required={p.required}
              errors={errors}
              disabled={busy}
              onChange={change}
            />
          ))
        )
      ) : (
        <SchemaField
          name="Arguments (JSON)"
          model={{ ...model, title: 'Arguments (JSON)' }}
          draft={draft}
          path={[]}
          required
          errors={errors}
          disabled={busy}
          onChange={change}
        />
      )}
      <Alert message={model.kind === 'object' && rootError} tone="field-error" />
      <Alert message={failure} tone="field-error" />
      <div className="actions">
        <button type="submit" disabled={busy}>
          <Icon icon={Play} />
          Run
        </button>
      </div>
    </form>
  );
}
