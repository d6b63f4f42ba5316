import { useId, useState } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { AuditLog } from './AuditLog';
import { StandingDecisions } from './StandingDecisions';
import { useAuditTrail } from './use-audit-trail';
import './consent.css';
import { Alert } from '../../ui/Alert';

/** Settings › Tool consent: the standing decisions (each with Revoke), the ask timeout, and the audit trail. */
export function ConsentSettings() {
  const api = useAppStore((s) => s.api);
  const decisions = useAppStore((s) => s.standingDecisions);
  const settings = useAppStore((s) => s.consentSettings);
  const finished = useAppStore((s) => s.toolCallsFinished);
  const audit = useAuditTrail(api, finished);
  const titleId = useId();

  return (
    <section className="card consent-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>Tool consent</h2>
      <p className="hint">Every tool call the model asks for waits for your answer, unless a standing decision below covers it.</p>
      <h3>Standing decisions</h3>
      {decisions ? (
        <StandingDecisions decisions={decisions} onRevoke={(id) => api.revokeDecision({ id })} />
      ) : (
        <p className="muted">Loading…</p>
      )}
      {settings && (
        <TimeoutForm minutes={settings.timeoutMinutes} onSave={(timeoutMinutes) => api.updateConsentSettings({ timeoutMinutes })} />
      )}
      <h3>Tool calls</h3>
      <Alert message={audit.error} prefix="Could not load the audit trail:" />
      <AuditLog entries={audit.entries} hasMore={audit.hasMore} loading={audit.loading} onMore={audit.more} />
    </section>
  );
}

/** How long a request may wait before it counts as denied. */
function TimeoutForm({ minutes, onSave }: { minutes: number; onSave(minutes: number): Promise<unknown> }) {
  const id = useId();
  const [text, setText] = useState(String(minutes));
  const [state, setState] = useState('');
  const save = async () => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > 1440) return setState('Enter whole minutes from 1 to 1440');
    try {
      await onSave(value);
      setState('Saved');
    } catch (failure) {
      setState(`Not saved: ${messageOf(failure)}`);
    }
  };
  return (
    <form
      className="form consent-timeout"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id}>Deny unanswered requests after (minutes)</label>
      <input id={id} type="text" inputMode="numeric" value={text} onChange={(e) => (setText(e.target.value), setState(''))} />
      <div className="actions">
        <button type="submit">Save timeout</button>
        <span role="status">{state}</span>
      </div>
    </form>
  );
}
