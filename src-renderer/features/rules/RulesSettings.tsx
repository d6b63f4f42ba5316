import { useId, useState } from 'react';
import type { RuleView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { AddRuleDialog } from './AddRuleDialog';
import { TestRuleDialog } from './TestRuleDialog';
import './rules.css';

/** Settings › Rules: the user's rules as text (reviewable), in words, with warnings; the organisation's, read-only. */
export function RulesSettings() {
  const api = useAppStore((s) => s.api);
  const view = useAppStore((s) => s.rules);
  const ids = { title: useId(), text: useId(), hint: useId() };
  const hostText = view?.text ?? '';
  const [text, setText] = useState(hostText);
  const [seen, setSeen] = useState(hostText);
  const [status, setStatus] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [testing, setTesting] = useState(false);
  const [adding, setAdding] = useState(false);

  // What the host holds wins when it changes elsewhere (the Tools tab's Add rule), unless the user is mid-edit.
  if (hostText !== seen) {
    setSeen(hostText);
    if (text === seen) setText(hostText);
  }

  const save = async () => {
    setStatus('');
    try {
      await api.setRules({ text });
      setErrors([]);
      setStatus('Saved');
    } catch (failure) {
      const issues = issuesOf(failure);
      setErrors(issues.length > 0 ? issues.map((issue) => issue.message) : [messageOf(failure)]);
      setStatus('Not saved: the previous rules stay in force');
    }
  };

  const organisation = view?.organisation;
  return (
    <section className="card rules-settings" aria-labelledby={ids.title}>
      <h2 id={ids.title}>Rules</h2>
      <p className="hint">
        Rules decide a tool call from its arguments before any standing decision: Deny holds the call (it never reaches the server), Ask
        always asks, even when you chose &quot;Always allow&quot;, and Allow lets it through. Deny wins over Ask, Ask over Allow.
      </p>
      {view?.organisationProblem && (
        <p role="alert" className="warning">
          The organisation&apos;s file <code>{view.organisationProblem.file}</code> could not be used: {view.organisationProblem.message}.
          The policy read before stays in force.
        </p>
      )}
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div className="field">
          <label htmlFor={ids.text}>Your rules</label>
          <textarea
            id={ids.text}
            className="rules-text"
            rows={8}
            spellCheck={false}
            value={text}
            aria-describedby={ids.hint}
            aria-invalid={errors.length > 0 || undefined}
            onChange={(event) => {
              setText(event.target.value);
              setStatus('');
            }}
          />
          <p id={ids.hint} className="hint">
            One rule a line, for example <code>deny tool read_file if path outside shared folders</code>,{' '}
            <code>ask server fetch if url host not in [docs.python.org]</code>, <code>deny any tool if limit &gt; 100</code>,{' '}
            <code>ask any tool if query matches /password/i</code>. <code>#</code> starts a comment.
          </p>
        </div>
        {errors.length > 0 && (
          <ul role="alert" className="field-error rule-errors">
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        )}
        <div className="actions">
          <button type="submit">Save rules</button>
          <button type="button" className="secondary" onClick={() => setAdding(true)}>
            Add rule
          </button>
          <button type="button" className="secondary" onClick={() => setTesting(true)}>
            Test a rule
          </button>
          <span role="status">{status}</span>
        </div>
      </form>
      {view && view.warnings.length > 0 && (
        <ul className="rule-warnings" aria-label="Warnings">
          {view.warnings.map((warning) => (
            <li key={`${warning.line}:${warning.message}`} className="warning">
              Line {warning.line}: {warning.message}
            </li>
          ))}
        </ul>
      )}
      <h3>In force</h3>
      {view && view.rules.length > 0 ? <RuleList rules={view.rules} /> : <p className="muted">No rules of yours.</p>}
      {organisation && (
        <>
          <h3>Set by your organisation</h3>
          <p className="hint">
            From <code>{organisation.file}</code> (read-only). Your rules cannot loosen these.
          </p>
          {organisation.rules.length > 0 && <RuleList rules={organisation.rules} />}
          <dl className="facts">
            {organisation.sandboxRequired && (
              <>
                <dt>Sandbox</dt>
                <dd>Required for every local server</dd>
              </>
            )}
            {organisation.deniedServers.length > 0 && (
              <>
                <dt>Denied servers</dt>
                <dd>{organisation.deniedServers.join(', ')}</dd>
              </>
            )}
            {organisation.allowedServers && (
              <>
                <dt>Allowed servers</dt>
                <dd>{organisation.allowedServers.length > 0 ? organisation.allowedServers.join(', ') : 'None'}</dd>
              </>
            )}
          </dl>
        </>
      )}
      {testing && <TestRuleDialog open={testing} onOpenChange={setTesting} draft={text} />}
      {adding && <AddRuleDialog open={adding} onOpenChange={setAdding} />}
    </section>
  );
}

function RuleList({ rules }: { rules: readonly RuleView[] }) {
  return (
    <ul className="rule-list">
      {rules.map((rule) => (
        <li key={`${rule.source}:${rule.line}`}>
          <span className={`rule-decision rule-${rule.decision}`}>{rule.decision}</span> {rule.words}
        </li>
      ))}
    </ul>
  );
}
