import type { InteractionAuditEntry, InteractionStep } from '@contract';
import { RelativeTime } from '../../ui/RelativeTime';
import { Alert } from '../../ui/Alert';

const KINDS: Record<InteractionAuditEntry['kind'], string> = {
  sampling: 'sampling (LLM completion)',
  elicitation: 'elicitation (information)',
};

const OUTCOMES: Record<InteractionAuditEntry['outcome'], string> = {
  sent: 'Response sent',
  accepted: 'Accepted',
  declined: 'Declined',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
  blocked: 'Blocked',
  withdrawn: 'Withdrawn',
  failed: 'Failed',
  shutdown: 'Ended when Patchbay quit',
};

const DECIDERS: Record<InteractionAuditEntry['decidedBy'], string> = {
  user: 'you',
  policy: "the server's policy",
  host: 'Patchbay',
};

const STEP_ACTIONS: Record<InteractionStep['action'], string> = {
  approved: 'approved',
  rejected: 'rejected',
  sent: 'sent',
  blocked: 'blocked',
  withdrawn: 'withdrawn',
  failed: 'failed to generate',
  shutdown: 'ended when Patchbay quit',
};

/** "Request approved by the server's policy", "Response rejected by you". */
function describeStep(step: InteractionStep): string {
  const what = `${step.stage === 'request' ? 'Request' : 'Response'} ${STEP_ACTIONS[step.action]}`;
  return step.action === 'shutdown' || step.action === 'failed' ? what : `${what} by ${DECIDERS[step.by]}`;
}

/** How it ended; a rejection or withdrawal says at which step (the request, or the response). */
function outcomeLabel(e: InteractionAuditEntry): string {
  const last = e.steps?.[e.steps.length - 1];
  if (last && (e.outcome === 'rejected' || e.outcome === 'withdrawn')) return `${OUTCOMES[e.outcome]} at the ${last.stage} step`;
  return OUTCOMES[e.outcome];
}

/** Pretty-printed for reading; the host stores JSON, but a row it could not parse is still shown as is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export interface InteractionAuditLogProps {
  entries: InteractionAuditEntry[];
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  onMore(): void;
}

/**
 * The sampling/elicitation audit trail, newest first: which server asked for what, inside which tool
 * call, who decided and how it ended; expanded, what was asked and sent back (redacted by the host).
 */
export function InteractionAuditLog({ entries, hasMore, loading, error, onMore }: InteractionAuditLogProps) {
  return (
    <>
      <Alert message={error} prefix="Could not load server requests:" />
      {entries.length === 0 ? (
        <p className="muted">{loading ? 'Loading…' : 'No server requests yet.'}</p>
      ) : (
        <ol className="interaction-audit" aria-label="Server requests">
          {entries.map((e) => (
            <li key={e.seq} data-outcome={e.outcome}>
              <EntryDetails entry={e} />
            </li>
          ))}
        </ol>
      )}
      {hasMore && entries.length > 0 && (
        <button type="button" className="secondary" disabled={loading} onClick={onMore}>
          {loading ? 'Loading…' : 'Show older requests'}
        </button>
      )}
    </>
  );
}

function EntryDetails({ entry: e }: { entry: InteractionAuditEntry }) {
  return (
    <details>
      <summary>
        <RelativeTime iso={e.requestedAt} /> · <strong>{e.serverName}</strong> · {KINDS[e.kind]} ·{' '}
        {e.toolCall ? (
          <>
            in <code>{e.toolCall}</code>
          </>
        ) : (
          'outside a tool call'
        )}{' '}
        · <span className="audit-outcome">{outcomeLabel(e)}</span> · decided by {DECIDERS[e.decidedBy]}
      </summary>
      <dl className="facts">
        <dt>Decided</dt>
        <dd>
          <RelativeTime iso={e.decidedAt} />
        </dd>
        {e.note && (
          <>
            <dt>Note</dt>
            <dd>{e.note}</dd>
          </>
        )}
        {e.steps && e.steps.length > 0 && (
          <>
            <dt>Steps</dt>
            <dd>
              <ol className="audit-steps" aria-label="Steps">
                {e.steps.map((step, i) => (
                  <li key={i}>
                    {describeStep(step)}
                    {step.note && ` (${step.note})`} · <RelativeTime iso={step.at} />
                  </li>
                ))}
              </ol>
            </dd>
          </>
        )}
        <dt>Request</dt>
        <dd>
          <pre>{prettyJson(e.request)}</pre>
        </dd>
        <dt>Response</dt>
        <dd>{e.response !== undefined ? <pre>{prettyJson(e.response)}</pre> : <span className="muted">Nothing was sent back.</span>}</dd>
      </dl>
    </details>
  );
}
