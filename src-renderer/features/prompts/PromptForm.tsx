import { useState } from 'react';
import type { PromptResultView, PromptView } from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { ArgumentField } from '../resources/ArgumentField';
import { Alert } from '../../ui/Alert';

export interface PromptFormProps {
  prompt: PromptView;
  /** The server declares `completions`: the fields suggest values. */
  completions: boolean;
  /** Fetches the prompt with these arguments (rejects with field errors for missing required ones). */
  onGet(args: Record<string, string>): Promise<PromptResultView>;
  /** The label of the submit button: `Get prompt` on the Prompts tab, `Use prompt` in the chat. */
  submitLabel?: string;
}

/** A prompt's arguments as fields (required ones marked, each with suggestions when the server completes), and the button that fetches it. */
export function PromptForm({ prompt, completions, onGet, submitLabel = 'Get prompt' }: PromptFormProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const missing = prompt.arguments.filter((a) => a.required && (values[a.name] ?? '').trim() === '');
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((a) => [a.name, `${a.name} is required`])));
      return;
    }
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      await onGet(values);
    } catch (error) {
      const issues = issuesOf(error).filter((i) => i.path[0] === 'arguments');
      if (issues.length > 0) setErrors(Object.fromEntries(issues.map((i) => [String(i.path[1]), i.message])));
      else setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label={`Arguments of ${prompt.name}`}
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {prompt.arguments.length === 0 && <p className="muted">This prompt takes no arguments.</p>}
      {prompt.arguments.map((argument) => (
        <ArgumentField
          key={argument.name}
          serverId={prompt.serverId}
          completionRef={{ type: 'prompt', name: prompt.name }}
          name={argument.name}
          description={[argument.title, argument.description].filter(Boolean).join(' — ') || undefined}
          required={argument.required}
          value={values[argument.name] ?? ''}
          values={values}
          onChange={(value) => {
            setValues((current) => ({ ...current, [argument.name]: value }));
            setErrors(({ [argument.name]: _gone, ...rest }) => rest);
          }}
          completions={completions}
          error={errors[argument.name]}
        />
      ))}
      <Alert message={failure} />
      <div className="button-row">
        <button type="submit" disabled={busy}>
          {busy ? 'Getting…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
