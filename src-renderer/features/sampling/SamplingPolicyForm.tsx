import { useId, useState } from 'react';
import type { SamplingPolicy, SamplingPolicyMode } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Select } from '../../ui/Select';

export interface SamplingPolicyFormProps {
  serverName: string;
  policy: SamplingPolicy;
  /** Resolves once saved; a rejection is shown. */
  onSave(policy: SamplingPolicy): Promise<unknown>;
}

const MODES: { value: SamplingPolicyMode; label: string }[] = [
  { value: 'ask', label: 'Ask every time' },
  { value: 'auto', label: 'Approve requests automatically, review responses' },
  { value: 'block', label: 'Block sampling' },
];

const asLimit = (text: string) => (text.trim() === '' ? undefined : Math.max(1, Math.round(Number(text))));

/**
 * A server's sampling policy: ask / auto-approve (the response is still reviewed) / block, a rate
 * limit and a max-tokens cap. Applies from the next request on.
 */
export function SamplingPolicyForm({ serverName, policy, onSave }: SamplingPolicyFormProps) {
  const id = useId();
  const [mode, setMode] = useState(policy.mode);
  const [rate, setRate] = useState(policy.ratePerMinute?.toString() ?? '');
  const [cap, setCap] = useState(policy.maxTokensCap?.toString() ?? '');
  const [status, setStatus] = useState<string | null>(null);

  const save = async () => {
    const ratePerMinute = asLimit(rate);
    const maxTokensCap = asLimit(cap);
    try {
      await onSave({
        serverId: policy.serverId,
        mode,
        ...(ratePerMinute ? { ratePerMinute } : {}),
        ...(maxTokensCap ? { maxTokensCap } : {}),
      });
      setStatus('Saved: applies from the next request.');
    } catch (failure) {
      setStatus(`Not saved: ${messageOf(failure)}`);
    }
  };

  return (
    <details className="sampling-policy">
      <summary>Sampling policy for {serverName}</summary>
      <div className="field">
        <label htmlFor={`${id}-mode`}>When this server asks</label>
        <Select id={`${id}-mode`} value={mode} onChange={(next) => setMode(next as SamplingPolicyMode)} options={MODES} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-rate`}>Requests per minute (empty: no limit)</label>
        <input id={`${id}-rate`} type="number" min={1} value={rate} onChange={(e) => setRate(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cap`}>Max tokens per request (empty: no cap)</label>
        <input id={`${id}-cap`} type="number" min={1} value={cap} onChange={(e) => setCap(e.target.value)} />
      </div>
      <button type="button" onClick={() => void save()}>
        Save policy
      </button>
      {status && (
        <p role="status" className="hint">
          {status}
        </p>
      )}
    </details>
  );
}
