import { useEffect, useRef, useState } from 'react';
import { formatBytes, type ResourceReadView, type ResourceSubscriptionView, type ResourceView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { LinkedResourceOpener } from './linked-resource';
import { LinkedResourceDialog } from './LinkedResourceDialog';
import { ReadResult } from './ReadResult';
import { Alert } from '../../ui/Alert';

export interface ResourceDetailProps {
  resource: ResourceView;
  subscription?: ResourceSubscriptionView;
  /** Why the server cannot follow resources, when it cannot (the button is then disabled with it). */
  subscribeUnavailable?: string;
}

/**
 * One resource: what the server says about it (title, URI, type, size, annotations), `Read` to see
 * its contents, and `Subscribe` / `Unsubscribe` to follow it. A followed resource that the server
 * reports updated is read again at once, and says so.
 */
export function ResourceDetail({ resource, subscription, subscribeUnavailable }: ResourceDetailProps) {
  const api = useAppStore((s) => s.api);
  const [read, setRead] = useState<ResourceReadView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Updates since this resource was opened are announced; older ones are history.
  const [openedAt] = useState(() => new Date().toISOString());
  const [following, setFollowing] = useState(false);
  // A resource reached by a relative link in this one's Markdown, shown over it.
  const [linked, setLinked] = useState<string | null>(null);
  const { serverId, uri } = resource;

  const readNow = async (purpose: 'read' | 'update') => {
    setBusy(true);
    setError(null);
    try {
      setRead(await api.readResource({ serverId, uri, purpose }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const updated = subscription?.updatedAt && subscription.updatedAt > openedAt ? subscription.updatedAt : null;
  // An update for what is on screen: read it again (audited as a re-read after an update).
  const seenUpdate = useRef(subscription?.updatedAt);
  const shown = read !== null;
  useEffect(() => {
    const at = subscription?.updatedAt;
    if (!at || at === seenUpdate.current) return;
    seenUpdate.current = at;
    if (!shown) return;
    const timer = setTimeout(() => void readNow('update'), 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new update time triggers a re-read
  }, [subscription?.updatedAt]);

  const toggleFollow = async () => {
    setFollowing(true);
    setError(null);
    try {
      if (subscription) await api.unsubscribeResource({ serverId, uri });
      else await api.subscribeResource({ serverId, uri });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setFollowing(false);
    }
  };

  const a = resource.annotations;
  return (
    <article className="resource-detail" aria-labelledby="resource-detail-name">
      <h3 id="resource-detail-name">{resource.name}</h3>
      {resource.title && <p className="tool-title">{resource.title}</p>}
      {resource.description && <p>{resource.description}</p>}
      <dl className="facts">
        <dt>URI</dt>
        <dd>
          <code>{uri}</code>
        </dd>
        <dt>Type</dt>
        <dd>{resource.mimeType ?? 'not stated'}</dd>
        {resource.size !== undefined && (
          <>
            <dt>Size</dt>
            <dd>{formatBytes(resource.size)}</dd>
          </>
        )}
        {a?.audience && (
          <>
            <dt>Audience</dt>
            <dd>{a.audience.join(', ')}</dd>
          </>
        )}
        {a?.priority !== undefined && (
          <>
            <dt>Priority</dt>
            <dd>{a.priority}</dd>
          </>
        )}
        {a?.lastModified && (
          <>
            <dt>Last modified</dt>
            <dd>{new Date(a.lastModified).toLocaleString()}</dd>
          </>
        )}
      </dl>
      <div className="button-row">
        <button type="button" disabled={busy} onClick={() => void readNow('read')}>
          {busy ? 'Reading…' : 'Read'}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={following || (!subscription && subscribeUnavailable !== undefined)}
          aria-describedby={!subscription && subscribeUnavailable ? 'subscribe-unavailable' : undefined}
          onClick={() => void toggleFollow()}
        >
          {subscription ? 'Unsubscribe' : 'Subscribe'}
        </button>
        {subscription && (
          <span className="muted">
            {subscription.state === 'active' ? 'Following: updates are shown as they come.' : null}
            {subscription.state === 'pending' ? 'Following (waiting for the server).' : null}
            {subscription.state === 'failed' ? `Not followed: ${subscription.error ?? 'the server refused.'}` : null}
          </span>
        )}
      </div>
      {!subscription && subscribeUnavailable && (
        <p id="subscribe-unavailable" className="hint">
          {subscribeUnavailable}
        </p>
      )}
      {updated && (
        <p role="status" className="resource-updated">
          Updated {new Date(updated).toLocaleTimeString()}
          {read ? ' — shown again below.' : '.'}
        </p>
      )}
      <Alert message={error} />
      <LinkedResourceOpener.Provider value={setLinked}>{read && <ReadResult read={read} />}</LinkedResourceOpener.Provider>
      {linked && <LinkedResourceDialog key={linked} serverId={serverId} uri={linked} onClose={() => setLinked(null)} />}
    </article>
  );
}
