import { useRef } from 'react';
import { formatBytes, type AuditEntry } from '@contract';
import { useIntentTarget } from '../../ui/use-intent-target';
import { TimelineButton } from '../telemetry/TimelineButton';
import { RelativeTime } from '../../ui/RelativeTime';
import { formatElapsed } from '../tools/result/format';

const OUTCOMES: Record<AuditEntry['outcome'], string> = {
  running: 'Running',
  ok: 'OK',
  tool_error: 'Tool error',
  protocol_error: 'Call failed',
  cancelled: 'Cancelled',
  denied: 'Denied',
  interrupted: 'Interrupted — outcome unknown',
};

const ORIGINS: Record<AuditEntry['origin'], string> = {
  model: 'asked by the model',
  user: 'run by you',
  app: 'asked by an app',
};

const DECIDERS: Record<AuditEntry['decidedBy'], string> = {
  user: 'you',
  policy: 'a standing decision',
  timeout: 'the timeout',
  host: 'Patchbay',
};

/** A rule or the organisation's policy decides as `policy` too; its note names which (see guard/call-guard.ts `ruleLabel`). */
function deciderOf(entry: AuditEntry): string {
  if (entry.decidedBy === 'policy' && entry.decisionNote?.startsWith('Rule on line ')) return 'a rule';
  if (entry.decidedBy === 'policy' && entry.decisionNote?.startsWith('Set by your organisation')) return 'your organisation';
  return DECIDERS[entry.decidedBy];
}

export interface AuditLogProps {
  entries: AuditEntry[];
  hasMore: boolean;
  loading: boolean;
  onMore(): void;
}

/** The tool-call audit trail, newest first: who asked, who decided, what was sent (redacted), how it ended. */
export function AuditLog({ entries, hasMore, loading, onMore }: AuditLogProps) {
  if (entries.length === 0) return <p className="muted">{loading ? 'Loading…' : 'No tool calls yet.'}</p>;
  return (
    <>
      <ol className="tool-audit" aria-label="Tool calls">
        {entries.map((e) => (
          <AuditRow key={e.seq} entry={e} />
        ))}
      </ol>
      {hasMore && (
        <button type="button" className="secondary" disabled={loading} onClick={onMore}>
          {loading ? 'Loading…' : 'Show older calls'}
        </button>
      )}
    </>
  );
}

/** One call's entry; a timeline bar's "Audit entry" opens it and focuses it. */
function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const details = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  useIntentTarget('focus-audit-entry', e.callId, summary, () => {
    if (details.current) details.current.open = true;
  });
  return (
    <li data-outcome={e.outcome}>
      <details ref={details}>
        <summary ref={summary}>
          <RelativeTime iso={e.requestedAt} /> · <strong>{e.serverName}</strong> › <code>{e.tool}</code> · {ORIGINS[e.origin]} ·{' '}
          {e.decision === 'allowed' ? 'allowed' : 'denied'} by {deciderOf(e)} · <span className="audit-outcome">{OUTCOMES[e.outcome]}</span>
          {e.durationMs !== undefined && e.decision === 'allowed' && ` · ${formatElapsed(e.durationMs)}`}
          {e.resultBytes !== undefined && ` · ${formatBytes(e.resultBytes)}`}
        </summary>
        <dl className="facts">
          {e.decisionNote && (
            <>
              <dt>Decision</dt>
              <dd>{e.decisionNote}</dd>
            </>
          )}
          <dt>Arguments</dt>
          <dd>
            <code>{e.args}</code>
          </dd>
          {e.outcomeNote && (
            <>
              <dt>Note</dt>
              <dd>{e.outcomeNote}</dd>
            </>
          )}
          <dt>Arguments digest</dt>
          <dd>
            <code>{e.argsDigest}</code>
          </dd>
          {e.definitionHash && (
            <>
              <dt>Definition hash</dt>
              <dd>
                <code>{e.definitionHash}</code>
              </dd>
            </>
          )}
        </dl>
        {e.decision === 'allowed' && <TimelineButton target={{ callId: e.callId }} />}
      </details>
    </li>
  );
}
