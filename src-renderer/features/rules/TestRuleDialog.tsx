import { useId, useState } from 'react';
import type { RuleTestResult } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { ChoiceField, RuleDialog, TextField } from './RuleDialog';
import { Alert } from '../../ui/Alert';

export interface TestRuleDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The editor's draft (absent: the saved rules). The organisation's rules always apply. */
  draft?: string;
}

const DECISION_WORDS = { allow: 'Allow', ask: 'Ask', deny: 'Deny', none: 'No rule applies' } as const;

/** Test a rule: sample arguments → the decision and the rule that made it. Nothing runs. */
export function TestRuleDialog({ open, onOpenChange, draft }: TestRuleDialogProps) {
  const api = useAppStore((s) => s.api);
  const byId = useAppStore((s) => s.servers);
  const order = useAppStore((s) => s.serverOrder);
  const servers = order.flatMap((id) => (byId[id] ? [byId[id]] : []));
  const argsId = useId();
  const [serverId, setServerId] = useState(servers[0]?.config.id ?? '');
  const [tool, setTool] = useState('');
  const [args, setArgs] = useState('{}');
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [error, setError] = useState('');

  const test = async () => {
    setResult(null);
    setError('');
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch (failure) {
      return setError(`The arguments are not JSON: ${(failure as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return setError('The arguments must be a JSON object.');
    if (!serverId || !tool.trim()) return setError('Choose a server and name a tool.');
    const sample = parsed as Record<string, unknown>;
    setResult(await api.testRule({ serverId, tool: tool.trim(), args: sample, ...(draft !== undefined ? { text: draft } : {}) }));
  };

  return (
    <RuleDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Test a rule"
      description="Sample arguments are judged by the rules; nothing runs and no server is called."
      className="rule-test"
      onSubmit={test}
      onError={setError}
    >
      <ChoiceField
        label="Server"
        value={serverId}
        onChange={setServerId}
        options={servers.map((s) => ({ value: s.config.id, label: s.config.name }))}
      />
      <TextField label="Tool" value={tool} onChange={setTool} />
      <div className="field">
        <label htmlFor={argsId}>Sample arguments (JSON)</label>
        <textarea id={argsId} rows={5} spellCheck={false} value={args} onChange={(e) => setArgs(e.target.value)} />
      </div>
      <div className="actions">
        <button type="submit">Test</button>
        <button type="button" className="secondary" onClick={() => onOpenChange(false)}>
          Close
        </button>
      </div>
      <div role="status" className="rule-test-result">
        {result && (
          <>
            <strong>{DECISION_WORDS[result.decision]}</strong> — {result.summary}
            {result.rule && (
              <p className="hint">
                {result.rule.source === 'organisation' ? 'Set by your organisation' : `Line ${result.rule.line}`}:{' '}
                <code>{result.rule.text}</code>
              </p>
            )}
          </>
        )}
      </div>
      <Alert message={error} tone="field-error" />
    </RuleDialog>
  );
}
