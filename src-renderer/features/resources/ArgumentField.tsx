import type { CompletionRef } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { Combobox } from '../../ui/Combobox';
import { Field } from '../../ui/Field';
import { useCompletion } from './use-completion';

export interface ArgumentFieldProps {
  serverId: string;
  /** What the field belongs to, for `completion/complete`. */
  completionRef: CompletionRef;
  /** The argument's (or template variable's) name: the field's label, exactly. */
  name: string;
  description?: string;
  required: boolean;
  value: string;
  /** Every field's value, the others sent as context so suggestions can depend on them. */
  values: Readonly<Record<string, string>>;
  onChange(value: string): void;
  /** The server declares `completions`: a combobox with suggestions; else a plain text field. */
  completions: boolean;
  error?: string;
}

/**
 * One prompt argument or template variable, labelled by its name. With a server that completes, it is
 * a combobox whose options come from the server as the user types, given the other fields as context.
 */
export function ArgumentField({
  serverId,
  completionRef,
  name,
  description,
  required,
  value,
  values,
  onChange,
  completions,
  error,
}: ArgumentFieldProps) {
  const api = useAppStore((s) => s.api);
  const context = Object.fromEntries(Object.entries(values).filter(([key, v]) => key !== name && v !== ''));
  const { values: options, busy } = useCompletion(api, { serverId, ref: completionRef, argument: name, value, context }, completions);
  const hint = [description, required ? 'Required.' : 'Optional.'].filter(Boolean).join(' ');
  return (
    <Field label={name} hint={hint} error={error}>
      {(control) =>
        completions ? (
          <Combobox {...control} value={value} onChange={onChange} options={options} busy={busy} required={required} />
        ) : (
          <input {...control} type="text" value={value} aria-required={required || undefined} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Field>
  );
}
