import { useEffect, useRef, useState } from 'react';
import type { HostApi, InstallPlan, RegistryEntry, RegistryPage } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import './install.css';
import { Select } from '../../ui/Select';
import { Alert } from '../../ui/Alert';

export interface FindServersDialogProps {
  open: boolean;
  api: Pick<HostApi, 'searchRegistry' | 'planInstall'>;
  onOpenChange(open: boolean): void;
  /** The user chose an entry to install: the plan goes to the install dialog. */
  onPlan(plan: InstallPlan): void;
}

const SEARCH_DELAY_MS = 300;

/**
 * "Find servers": searches the MCP registry (the Registry URL setting) through the host, lists what it
 * found — name, description, version, publisher, repository, packages or remote — and hands the
 * chosen way of installing an entry to the install dialog.
 */
export function FindServersDialog({ open, api, onOpenChange, onPlan }: FindServersDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Find servers" description="Search the MCP Registry." className="modal-wide">
      {open && <FindServers api={api} onPlan={onPlan} />}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => onOpenChange(false)}>
          Close
        </button>
      </div>
    </Modal>
  );
}

type State = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'done'; page: RegistryPage };

function FindServers({ api, onPlan }: Pick<FindServersDialogProps, 'api' | 'onPlan'>) {
  const [query, setQuery] = useState('');
  const [state, setState] = useState<State>({ status: 'loading' });
  const [entries, setEntries] = useState<RegistryEntry[]>([]);
  const [more, setMore] = useState(false);
  const [planning, setPlanning] = useState<string | null>(null);
  const [planError, setPlanError] = useState<string | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    const ask = ++asked.current;
    const timer = setTimeout(() => {
      api.searchRegistry({ query }).then(
        (page) => {
          if (ask !== asked.current) return;
          setEntries(page.entries);
          setState({ status: 'done', page });
        },
        (e: unknown) => ask === asked.current && setState({ status: 'failed', message: messageOf(e) }),
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, query]);

  const loadMore = async () => {
    if (state.status !== 'done' || !state.page.nextCursor) return;
    setMore(true);
    const ask = asked.current;
    try {
      const page = await api.searchRegistry({ query, cursor: state.page.nextCursor });
      if (ask !== asked.current) return;
      setEntries((current) => [...current, ...page.entries]);
      setState({ status: 'done', page: { ...page, skipped: [...state.page.skipped, ...page.skipped] } });
    } catch (e) {
      setState({ status: 'failed', message: messageOf(e) });
    } finally {
      setMore(false);
    }
  };

  const choose = async (entry: RegistryEntry, option: number) => {
    setPlanning(entry.id);
    setPlanError(null);
    try {
      onPlan(await api.planInstall({ source: { kind: 'registry', entryId: entry.id, option } }));
    } catch (e) {
      setPlanError(`${entry.name}: ${messageOf(e)}`);
    } finally {
      setPlanning(null);
    }
  };

  return (
    <div className="find-servers">
      <input
        type="search"
        aria-label="Search servers"
        placeholder="Search by name, e.g. filesystem"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setState({ status: 'loading' });
        }}
        data-autofocus
      />
      <p role="status" className="save-state">
        {state.status === 'loading' && 'Searching…'}
        {state.status === 'done' && `${entries.length} server${entries.length === 1 ? '' : 's'} from ${state.page.registryUrl}`}
      </p>
      <Alert message={state.status === 'failed' && state.message} />
      <Alert message={planError} tone="field-error" />
      <ul role="list" className="registry-list" aria-label="Registry servers">
        {entries.map((entry) => (
          <RegistryItem key={entry.id} entry={entry} busy={planning === entry.id} onInstall={(option) => void choose(entry, option)} />
        ))}
      </ul>
      {state.status === 'done' && state.page.skipped.length > 0 && (
        <details className="hint">
          <summary>
            {state.page.skipped.length} entr{state.page.skipped.length === 1 ? 'y' : 'ies'} left out (not valid)
          </summary>
          <ul>
            {state.page.skipped.map((skip, index) => (
              <li key={index}>
                {skip.name ?? 'An entry without a name'}: {skip.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {state.status === 'done' && state.page.nextCursor && (
        <button type="button" className="secondary" disabled={more} onClick={() => void loadMore()}>
          {more ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}

function RegistryItem({ entry, busy, onInstall }: { entry: RegistryEntry; busy: boolean; onInstall(option: number): void }) {
  const supported = entry.options.filter((option) => option.supported);
  const [option, setOption] = useState(supported[0]?.index ?? -1);
  const label = entry.title ?? entry.name;
  return (
    <li className="registry-item" aria-label={label}>
      <div className="registry-head">
        <strong>{label}</strong> <span className="muted">{entry.version}</span>
        {entry.status && entry.status !== 'active' && <span className="badge badge-warning">{entry.status}</span>}
        {entry.kinds.map((kind) => (
          <span key={kind} className="badge">
            {kind}
          </span>
        ))}
      </div>
      {entry.title && <p className="muted">{entry.name}</p>}
      <p>{entry.description}</p>
      <p className="muted">
        Published by {entry.publisher}
        {entry.repositoryUrl && isWebLink(entry.repositoryUrl) && (
          <>
            {' · '}
            <a href={entry.repositoryUrl} target="_blank" rel="noreferrer noopener">
              Repository
            </a>
          </>
        )}
      </p>
      {entry.options
        .filter((o) => !o.supported)
        .map((o) => (
          <p key={o.index} className="hint">
            {o.label}: {o.unsupportedReason}
          </p>
        ))}
      {supported.length > 0 && (
        <div className="actions">
          {supported.length > 1 && (
            <Select
              aria-label={`How to install ${label}`}
              value={String(option)}
              onChange={(next) => setOption(Number(next))}
              options={supported.map((o) => ({ value: String(o.index), label: o.label }))}
            />
          )}
          <button type="button" disabled={busy} onClick={() => onInstall(option)}>
            Install
          </button>
        </div>
      )}
    </li>
  );
}

/** Only web pages are linked: a `javascript:`, `file:` or `data:` URL from a registry is not a link to follow. */
function isWebLink(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
