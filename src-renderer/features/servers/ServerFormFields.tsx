import { useId } from 'react';
import { HiddenCharsNote, linesOf } from './HiddenCharsNote';
import type { LaunchFixField, SandboxSupport, ServerConfigView, ServerTransportKind } from '@contract';
import { Field } from '../../ui/Field';
import { ENV_SYNTAX, HEADER_SYNTAX, SECRET_PLACEHOLDER } from './key-value-lines';
import { KeyValueField } from './KeyValueField';
import type { EditDraft, FormErrors, ServerDraft } from './server-form-model';
import { SandboxFields } from './SandboxFields';

/** A field the form opens focused on (a launch problem's "Edit server" fix points at the command or folder). */
export type FocusField = LaunchFixField;

/** Changes the draft; naming a field clears its error (the user is fixing it). */

interface FieldsProps {
  draft: ServerDraft;
  errors: FormErrors;
  /** The server being edited, for its stored secrets' names. */
  stored?: ServerConfigView;
  edit: EditDraft;
  /** The field to put the cursor in when the form opens. */
  focus?: FocusField;
  /** Whether this machine can run servers in a sandbox. */
  sandboxSupport?: SandboxSupport;
}

const TRANSPORT_LABELS: Record<ServerTransportKind, string> = { stdio: 'Local command', http: 'Remote URL' };

/** The Type radio group. Native radios sharing a name: arrow keys move between them, as users expect. */
export function TransportChoice({ value, onChange }: { value: ServerTransportKind; onChange(value: ServerTransportKind): void }) {
  const id = useId();
  return (
    <fieldset role="radiogroup" aria-labelledby={`${id}-legend`}>
      <legend id={`${id}-legend`}>Type</legend>
      {(Object.keys(TRANSPORT_LABELS) as ServerTransportKind[]).map((kind) => (
        <label key={kind} className="inline">
          <input type="radio" name={`${id}-transport`} value={kind} checked={value === kind} onChange={() => onChange(kind)} />
          {TRANSPORT_LABELS[kind]}
        </label>
      ))}
    </fieldset>
  );
}

/** A program Patchbay runs on this computer and talks to over stdio. */
export function LocalFields({ draft, errors, stored, edit, focus, sandboxSupport }: FieldsProps) {
  return (
    <>
      <Field label="Command" error={errors.command} hint="The program to run, e.g. npx, uvx, node or a full path.">
        {(c) => (
          <input
            {...c}
            value={draft.command}
            spellCheck={false}
            autoComplete="off"
            data-autofocus={focus === 'command' ? true : undefined}
            onChange={(e) => edit({ command: e.target.value }, 'command')}
          />
        )}
      </Field>
      <Field label="Arguments" error={errors.args} hint="One argument per line; empty lines are left out. No quoting needed.">
        {(c) => <textarea {...c} rows={3} spellCheck={false} value={draft.args} onChange={(e) => edit({ args: e.target.value }, 'args')} />}
      </Field>
      <KeyValueField
        label="Environment"
        hint={
          <>
            One <code>KEY=value</code> per line.
          </>
        }
        help={
          <>
            The value is taken literally. <code>{SECRET_PLACEHOLDER}</code> stands for a stored secret: leave it to keep the value.
          </>
        }
        placeholder="API_KEY=…"
        syntax={ENV_SYNTAX}
        draft={draft.env}
        stored={stored?.env ?? []}
        error={errors.env}
        onChange={(env) => edit({ env }, 'env')}
      />
      <Field label="Working directory" error={errors.cwd} hint="Empty = your home directory.">
        {(c) => (
          <input
            {...c}
            value={draft.cwd}
            spellCheck={false}
            autoComplete="off"
            data-autofocus={focus === 'cwd' ? true : undefined}
            onChange={(e) => edit({ cwd: e.target.value }, 'cwd')}
          />
        )}
      </Field>
      <HiddenCharsNote
        texts={[
          { where: 'The command', text: draft.command },
          ...linesOf('Arguments', draft.args),
          ...linesOf('Environment', draft.env.text),
          { where: 'The working directory', text: draft.cwd },
        ]}
      />
      <SandboxFields draft={draft} errors={errors} edit={edit} support={sandboxSupport} />
    </>
  );
}

/** A server Patchbay reaches over HTTP. */
export function RemoteFields({ draft, errors, stored, edit }: FieldsProps) {
  return (
    <>
      <Field label="URL" error={errors.url} hint="Streamable HTTP; old HTTP+SSE servers are detected automatically.">
        {(c) => (
          <input
            {...c}
            type="url"
            inputMode="url"
            placeholder="https://example.com/mcp"
            value={draft.url}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => edit({ url: e.target.value }, 'url')}
          />
        )}
      </Field>
      <KeyValueField
        label="Headers"
        hint={
          <>
            Sent with every request, one <code>Name: value</code> per line.
          </>
        }
        help={
          <>
            <code>{SECRET_PLACEHOLDER}</code> stands for a stored secret: leave it to keep the value. Servers that use sign-in need none.
          </>
        }
        placeholder="Authorization: Bearer …"
        syntax={HEADER_SYNTAX}
        draft={draft.headers}
        stored={stored?.headers ?? []}
        error={errors.headers}
        onChange={(headers) => edit({ headers }, 'headers')}
      />
      <HiddenCharsNote texts={[{ where: 'The URL', text: draft.url }, ...linesOf('Headers', draft.headers.text)]} />
    </>
  );
}
