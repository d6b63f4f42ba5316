import { useCallback, useId } from 'react';
import type { ContentAction, ContentAuditEntry } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { RelativeTime } from '../../ui/RelativeTime';
import { useAuditPages } from '../../ui/use-audit-pages';
import { Alert } from '../../ui/Alert';

const ACTIONS: Record<ContentAction, string> = {
  read: 'Read',
  template: 'Read from a template',
  link: 'Opened a link',
  update: 'Read again after an update',
  attach: 'Attached to a message',
  'prompt-preview': 'Got the prompt',
  'prompt-chat': 'Used the prompt in a message',
  subscribe: 'Subscribed',
  unsubscribe: 'Unsubscribed',
  'app-ui': 'Loaded a tool’s app',
  'app-read': 'Read by a tool’s app',
};

/**
 * Settings › Resource and prompt use: every read, attachment, prompt use and subscription the user
 * made, newest first — which server, which URI or prompt, when, by which action, and how it went.
 */
export function ContentUseSettings() {
  const api = useAppStore((s) => s.api);
  const revision = useAppStore((s) => s.contentAuditRevision);
  const conversations = useAppStore((s) => s.conversations);
  const load = useCallback((page: { limit: number; before?: number }) => api.listContentAudit(page), [api]);
  const audit = useAuditPages<ContentAuditEntry>(load, revision);
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Resource and prompt use</h2>
      <p className="hint">
        What you took from servers: every resource read, attachment, prompt and subscription. Nothing reaches the model that is not here as
        something you attached or chose.
      </p>
      <Alert message={audit.error} prefix="Could not load the trail:" />
      {audit.entries.length === 0 ? (
        <p className="muted">{audit.loading ? 'Loading…' : 'Nothing yet.'}</p>
      ) : (
        <ol className="interaction-audit" aria-label="Resource and prompt use">
          {audit.entries.map((e) => (
            <li key={e.seq} data-outcome={e.outcome}>
              <RelativeTime iso={e.at} /> · <strong>{e.serverName}</strong> · {ACTIONS[e.action] ?? e.action} · <code>{e.target}</code>
              {e.detail && <span className="muted"> {e.detail}</span>}
              {e.conversationId && <span className="muted"> · in “{conversations[e.conversationId]?.title ?? 'a conversation'}”</span>}
              {e.chars !== undefined && <span className="muted"> · {e.chars.toLocaleString()} characters</span>}
              {e.outcome === 'error' && <span className="field-error"> · failed: {e.error}</span>}
            </li>
          ))}
        </ol>
      )}
      {audit.hasMore && audit.entries.length > 0 && (
        <button type="button" className="secondary" disabled={audit.loading} onClick={audit.more}>
          {audit.loading ? 'Loading…' : 'Show older'}
        </button>
      )}
    </section>
  );
}
