import { useEffect, useId, useMemo, useState } from 'react';
import type { ResourceTemplateView, ServerView } from '@contract';
import { useAppStore } from '../../../stores/use-app-store';
import { messageOf } from '../../../ui/call-errors';
import { Modal } from '../../../ui/Modal';
import { ResourceList } from '../../resources/ResourceList';
import { TemplateForm } from '../../resources/TemplateForm';
import { useResourcePages } from '../../resources/use-resource-pages';
import '../../resources/resources.css';
import { Alert } from '../../../ui/Alert';

export interface AttachDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The Ready servers of the conversation. */
  servers: readonly ServerView[];
  /** Reads and holds the resource for the message (named, when the server's list does not); the dialog closes once it is attached. */
  onAttach(serverId: string, uri: string, name?: string): Promise<unknown>;
}

/**
 * `Attach`: a searchable list of the resources of the conversation's servers, by name (virtualized,
 * paged from the host), and their templates as forms. Choosing one reads it — the user's action — and
 * it shows as a chip above the message box.
 */
export function AttachDialog({ open, onOpenChange, servers, onAttach }: AttachDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Attach resources" className="resource-modal">
      {open && <AttachPicker servers={servers} onAttach={onAttach} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function AttachPicker({
  servers,
  onAttach,
  onDone,
}: {
  servers: readonly ServerView[];
  onAttach: AttachDialogProps['onAttach'];
  onDone(): void;
}) {
  const api = useAppStore((s) => s.api);
  const searchId = useId();
  const [filter, setFilter] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [templates, setTemplates] = useState<ResourceTemplateView[]>([]);
  const [template, setTemplate] = useState<ResourceTemplateView | null>(null);
  const withResources = useMemo(() => servers.filter((s) => s.runtime.capabilities?.includes('resources')), [servers]);
  const serverIds = useMemo(() => withResources.map((s) => s.config.id), [withResources]);
  const pages = useResourcePages(api, serverIds, filter, 0);

  useEffect(() => {
    if (serverIds.length === 0) return;
    let current = true;
    api.listResourceTemplates({ serverIds }).then(
      (list) => current && setTemplates(list.templates.filter((t) => !t.problem)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, serverIds]);

  const attach = async (serverId: string, uri: string, name?: string) => {
    setBusy(uri);
    setError(null);
    try {
      await onAttach(serverId, uri, name);
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(null);
    }
  };

  if (withResources.length === 0)
    return (
      <>
        <p className="muted">None of this conversation’s Ready servers offers resources.</p>
        <div className="actions">
          <button type="button" onClick={onDone}>
            Close
          </button>
        </div>
      </>
    );

  const completes = (serverId: string) =>
    servers.find((s) => s.config.id === serverId)?.runtime.capabilities?.includes('completions') ?? false;
  return (
    <div className="attach-picker">
      <div className="resources-toolbar">
        <label htmlFor={searchId}>Search resources</label>
        <input id={searchId} type="search" data-autofocus value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="muted" role="status">
          {busy ? `Reading ${busy}…` : pages.total === null ? 'Loading…' : `${pages.total.toLocaleString()} resources`}
        </span>
      </div>
      {pages.notes.map((note) => (
        <p key={note} className="warning">
          {note}
        </p>
      ))}
      <Alert message={error} />
      {template ? (
        <>
          <button type="button" className="link" onClick={() => setTemplate(null)}>
            ← All resources
          </button>
          <TemplateForm
            template={template}
            completions={completes(template.serverId)}
            use={{
              label: 'Attach',
              onUse: (uri) => attach(template.serverId, uri, `${template.name} ${uri.split('/').filter(Boolean).at(-1) ?? ''}`.trim()),
            }}
          />
        </>
      ) : (
        <>
          {pages.total === 0 ? (
            <p className="muted">No resource matches.</p>
          ) : (
            <ResourceList
              pages={pages}
              label="Resources to attach"
              selectedUri={null}
              followed={new Set()}
              onSelect={(resource) => void attach(resource.serverId, resource.uri)}
              height={320}
              showServer={withResources.length > 1}
            />
          )}
          {templates.length > 0 && (
            <>
              <h3 className="resources-subhead">Templates</h3>
              <ul className="tool-list template-list" aria-label="Templates to fill in">
                {templates.map((t) => (
                  <li key={`${t.serverId}\n${t.uriTemplate}`}>
                    <button type="button" className="tool-name" onClick={() => setTemplate(t)}>
                      {t.name}
                    </button>
                    <span className="muted"> · {t.serverName}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <div className="actions">
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}
