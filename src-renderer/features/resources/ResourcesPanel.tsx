import { useEffect, useId, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ResourceTemplateView, ResourceView, ServerRuntime } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { ResourceDetail } from './ResourceDetail';
import { ResourceList } from './ResourceList';
import { TemplateForm } from './TemplateForm';
import { useResourcePages } from './use-resource-pages';
import './resources.css';
import { panelState } from '../../ui/PanelState';
import { Alert } from '../../ui/Alert';

export interface ResourcesPanelProps {
  serverId: string;
  serverName: string;
  runtime: ServerRuntime;
}

type Selection = { kind: 'resource'; resource: ResourceView } | { kind: 'template'; template: ResourceTemplateView } | null;

/**
 * The Resources tab of a server: every resource by its name (searchable, virtualized, fetched a page
 * at a time), the resource templates as forms, and the selected one's detail with `Read` and
 * `Subscribe`. Controls the server does not support are disabled with the reason.
 */
export function ResourcesPanel({ serverId, serverName, runtime }: ResourcesPanelProps) {
  const api = useAppStore((s) => s.api);
  const revision = useAppStore((s) => s.contentRevision[serverId] ?? 0);
  const subscriptions = useAppStore(useShallow((s) => s.resourceSubscriptions.filter((sub) => sub.serverId === serverId)));
  const searchId = useId();
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<Selection>(null);
  const [templates, setTemplates] = useState<{ templates: ResourceTemplateView[]; notes: string[] } | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ready = runtime.status === 'ready';
  const capabilities = runtime.capabilities ?? [];
  const offersResources = capabilities.includes('resources');
  const serverIds = useMemo(() => (ready && offersResources ? [serverId] : []), [ready, offersResources, serverId]);
  // `runtime.since` changes on a restart: the lists are fetched again.
  const pages = useResourcePages(api, serverIds, filter, `${revision}|${runtime.since}`);

  useEffect(() => {
    if (serverIds.length === 0) return;
    let current = true;
    api.listResourceTemplates({ serverIds }).then(
      (list) => current && setTemplates(list),
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, serverIds, revision, runtime.since]);

  const followed = useMemo(() => new Set(subscriptions.map((s) => s.uri)), [subscriptions]);
  const state = panelState({
    what: 'resources',
    serverName,
    ready,
    offersNone: offersResources ? undefined : `${serverName} offers no resources.`,
  });
  if (state) return state;

  const completions = capabilities.includes('completions');
  const subscribeUnavailable = runtime.resourceSubscriptions
    ? undefined
    : `${serverName} does not offer subscriptions: it cannot tell Patchbay when a resource changes.`;
  const refresh = async () => {
    setRefreshing(true);
    setError(null);
    try {
      await api.refreshResources({ serverId });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setRefreshing(false);
    }
  };
  const notes = [...pages.notes, ...(templates?.notes ?? [])];

  return (
    <div className="resources-panel">
      <div className="resources-toolbar">
        <label htmlFor={searchId}>Search resources</label>
        <input
          id={searchId}
          type="search"
          value={filter}
          placeholder="Name, title, URI or type"
          onChange={(e) => setFilter(e.target.value)}
        />
        <span className="muted" role="status">
          {pages.total === null
            ? 'Loading…'
            : filter.trim()
              ? `${pages.total.toLocaleString()} of ${pages.unfiltered.toLocaleString()} resources`
              : `${pages.total.toLocaleString()} resource${pages.total === 1 ? '' : 's'}`}
        </span>
        <button type="button" className="secondary" disabled={refreshing} onClick={() => void refresh()}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {notes.map((note) => (
        <Alert key={note} message={note} />
      ))}
      <Alert message={error ?? pages.error} />
      <div className="tools-layout">
        <div className="resources-lists">
          {pages.total === 0 ? (
            <p className="muted">{filter.trim() ? 'No resource matches.' : `${serverName} lists no resources.`}</p>
          ) : (
            <ResourceList
              pages={pages}
              label={`Resources of ${serverName}`}
              selectedUri={selected?.kind === 'resource' ? selected.resource.uri : null}
              followed={followed}
              onSelect={(resource) => setSelected({ kind: 'resource', resource })}
            />
          )}
          <h3 className="resources-subhead">
            Templates{templates && templates.templates.length > 0 ? ` (${templates.templates.length})` : ''}
          </h3>
          {templates && templates.templates.length === 0 && <p className="muted">No resource templates.</p>}
          {templates && templates.templates.length > 0 && (
            <ul className="tool-list template-list" aria-label={`Resource templates of ${serverName}`}>
              {templates.templates.map((template) => (
                <li key={template.uriTemplate}>
                  <button
                    type="button"
                    className="tool-name"
                    aria-current={
                      selected?.kind === 'template' && selected.template.uriTemplate === template.uriTemplate ? 'true' : undefined
                    }
                    onClick={() => setSelected({ kind: 'template', template })}
                  >
                    {template.name}
                  </button>
                  {template.problem && <span className="muted"> · malformed</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
        {selected?.kind === 'resource' ? (
          <ResourceDetail
            key={selected.resource.uri}
            resource={selected.resource}
            subscription={subscriptions.find((s) => s.uri === selected.resource.uri)}
            subscribeUnavailable={subscribeUnavailable}
          />
        ) : selected?.kind === 'template' ? (
          <TemplateForm key={selected.template.uriTemplate} template={selected.template} completions={completions} />
        ) : (
          <p className="muted tools-pick">Choose a resource to read it, or a template to fill it in.</p>
        )}
      </div>
    </div>
  );
}
