import { useId, useState } from 'react';
import type { RuleDecision } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { ChoiceField, RuleDialog, TextField } from './RuleDialog';
import { CONDITIONS, ruleLine, takesValue, type ConditionChoice } from './rule-text';
import { Alert } from '../../ui/Alert';

export interface AddRuleDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The tool the rule is for (the Tools tab's); absent: the user names it. */
  tool?: string;
  server?: string;
  /** The tool's argument names (from its input schema). */
  args?: string[];
}

/** "When `read_file`'s `path` is outside the shared folders → Deny", built in words; added to the user's rules. */
export function AddRuleDialog({ open, onOpenChange, tool: fixedTool, server, args = [] }: AddRuleDialogProps) {
  const api = useAppStore((s) => s.api);
  const rules = useAppStore((s) => s.rules);
  const previewId = useId();
  const [tool, setTool] = useState(fixedTool ?? '');
  const [arg, setArg] = useState(args[0] ?? '');
  const [condition, setCondition] = useState<ConditionChoice>('outside');
  const [value, setValue] = useState('');
  const [decision, setDecision] = useState<RuleDecision>('deny');
  const [error, setError] = useState('');
  const line = ruleLine({ decision, tool: fixedTool ?? tool.trim(), ...(server ? { server } : {}), arg: arg.trim(), condition, value });

  const add = async () => {
    if (takesValue(condition) && arg && !value.trim()) return setError('Enter the value the argument is compared with.');
    const text = rules?.text ?? '';
    await api.setRules({ text: text.trim() === '' ? line : `${text.replace(/\n+$/, '')}\n${line}` });
    onOpenChange(false);
  };

  return (
    <RuleDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add rule"
      description="A rule decides a call from its arguments before any standing decision."
      className="rule-builder"
      onSubmit={add}
      onError={setError}
    >
      {fixedTool === undefined && <TextField label="Tool (empty: any tool)" value={tool} onChange={setTool} />}
      {args.length > 0 ? (
        <ChoiceField label="Argument" value={arg} onChange={setArg} options={args.map((name) => ({ value: name, label: name }))} />
      ) : (
        <TextField label="Argument" value={arg} onChange={setArg} />
      )}
      <ChoiceField
        label="Condition"
        value={condition}
        onChange={(next) => setCondition(next as ConditionChoice)}
        options={Object.entries(CONDITIONS).map(([key, words]) => ({ value: key, label: words }))}
      />
      {takesValue(condition) && (
        <TextField
          label={condition === 'over' ? 'Limit' : condition.startsWith('host') ? 'Hosts (comma-separated)' : 'Pattern'}
          value={value}
          onChange={setValue}
        />
      )}
      <ChoiceField
        label="Decision"
        value={decision}
        onChange={(next) => setDecision(next as RuleDecision)}
        options={[
          { value: 'deny', label: 'Deny' },
          { value: 'ask', label: 'Ask' },
          { value: 'allow', label: 'Allow' },
        ]}
      />
      <p className="hint">
        The rule as it will be saved: <code id={previewId}>{line}</code>
      </p>
      <Alert message={error} tone="field-error" />
      <div className="actions">
        <button type="submit">Add rule</button>
        <button type="button" className="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </button>
      </div>
    </RuleDialog>
  );
}
