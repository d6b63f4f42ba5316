import { useId, useState } from 'react';
import type { RuleDecision } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { CONDITIONS, ruleLine, takesValue, type ConditionChoice } from './rule-text';

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
  const ids = { tool: useId(), arg: useId(), condition: useId(), value: useId(), decision: useId(), preview: useId() };
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
    try {
      await api.setRules({ text: text.trim() === '' ? line : `${text.replace(/\n+$/, '')}\n${line}` });
      onOpenChange(false);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Add rule"
      description="A rule decides a call from its arguments before any standing decision."
    >
      <form
        className="form rule-builder"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        {fixedTool === undefined && (
          <div className="field">
            <label htmlFor={ids.tool}>Tool (empty: any tool)</label>
            <input id={ids.tool} value={tool} onChange={(e) => setTool(e.target.value)} />
          </div>
        )}
        <div className="field">
          <label htmlFor={ids.arg}>Argument</label>
          {args.length > 0 ? (
            <Select id={ids.arg} value={arg} onChange={setArg} options={args.map((name) => ({ value: name, label: name }))} />
          ) : (
            <input id={ids.arg} value={arg} onChange={(e) => setArg(e.target.value)} />
          )}
        </div>
        <div className="field">
          <label htmlFor={ids.condition}>Condition</label>
          <Select
            id={ids.condition}
            value={condition}
            onChange={(next) => setCondition(next as ConditionChoice)}
            options={Object.entries(CONDITIONS).map(([key, words]) => ({ value: key, label: words }))}
          />
        </div>
        {takesValue(condition) && (
          <div className="field">
            <label htmlFor={ids.value}>
              {condition === 'over' ? 'Limit' : condition.startsWith('host') ? 'Hosts (comma-separated)' : 'Pattern'}
            </label>
            <input id={ids.value} value={value} onChange={(e) => setValue(e.target.value)} />
          </div>
        )}
        <div className="field">
          <label htmlFor={ids.decision}>Decision</label>
          <Select
            id={ids.decision}
            value={decision}
            onChange={(next) => setDecision(next as RuleDecision)}
            options={[
              { value: 'deny', label: 'Deny' },
              { value: 'ask', label: 'Ask' },
              { value: 'allow', label: 'Allow' },
            ]}
          />
        </div>
        <p className="hint">
          The rule as it will be saved: <code id={ids.preview}>{line}</code>
        </p>
        {error && (
          <p role="alert" className="field-error">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit">Add rule</button>
          <button type="button" className="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
