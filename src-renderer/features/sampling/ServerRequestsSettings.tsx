import { useId } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import { InteractionAuditLog } from './InteractionAuditLog';
import { useInteractionAudit } from './use-interaction-audit';
import './sampling.css';

/** Settings › Server requests: every sampling and elicitation request a server made, and how it was decided. */
export function ServerRequestsSettings() {
  const api = useAppStore((s) => s.api);
  const settled = useAppStore((s) => s.interactionsSettled);
  const audit = useInteractionAudit(api, settled);
  const titleId = useId();
  return (
    <section className="card server-requests" aria-labelledby={titleId}>
      <h2 id={titleId}>Server requests</h2>
      <p className="hint">
        Servers may ask for an LLM completion (sampling) or ask you for information (elicitation). Each request is kept here with what was
        decided; secrets Patchbay knows of are redacted.
      </p>
      <InteractionAuditLog
        entries={audit.entries}
        hasMore={audit.hasMore}
        loading={audit.loading}
        error={audit.error}
        onMore={audit.more}
      />
    </section>
  );
}
