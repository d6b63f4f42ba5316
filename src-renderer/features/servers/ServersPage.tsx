import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PRESET_IDS, type PresetId } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { FilePickerButton } from '../../ui/FilePickerButton';
import { Modal } from '../../ui/Modal';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { FindServersDialog } from '../install/FindServersDialog';
import { useInstallFlow } from '../install/use-install-flow';
import { SandboxOffer } from './SandboxOffer';
import { DiagnoseDialog } from './DiagnoseDialog';
import { ImportDialog } from './ImportDialog';
import { ServerCard, type ServerActions } from './ServerCard';
import { ServerDetail } from './ServerDetail';
import { ServerFormDialog } from './ServerFormDialog';
import { ServerListFilters } from './ServerListFilters';
import { BulkActions, toggled } from './BulkActions';
import { inStatusFilter, matchesServerSearch, PRESET_LABELS, type StatusFilter } from './server-status';
import type { FocusField } from './ServerFormFields';
import './servers.css';
import { Icon } from '../../ui/Icon';
import { FileInput, Plus, Search, Server } from 'lucide-react';
import { EmptyState } from '../../ui/EmptyState';
import { Alert } from '../../ui/Alert';

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; id: string; focus?: FocusField }
  | { kind: 'import' }
  | { kind: 'find' }
  | { kind: 'duplicate'; preset: PresetId }
  | { kind: 'diagnose'; id: string }
  | null;

/** The dialogs other parts of the app can ask this page to open. */
const REQUESTED_DIALOGS = { 'add-server': 'add', 'import-servers': 'import', 'find-servers': 'find' } as const;

/** The Servers page: the only piece that reads the store; everything below gets props and callbacks. */
export function ServersPage() {
  const api = useAppStore((s) => s.api);
  const loaded = useAppStore((s) => s.info !== null || s.loadError !== null);
  const sandboxSupport = useAppStore((s) => s.info?.sandbox);
  const servers = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.servers[id]).filter(Boolean)));
  const [ownDialog, setOwnDialog] = useState<Dialog>(null);
  // The open server's detail is part of the address (#/servers/<id>/<tab>).
  const route = useAppStore((s) => (s.route.page === 'servers' ? s.route : null));
  const go = useAppStore((s) => s.go);
  const intent = useAppStore((s) => s.intent);
  const finishIntent = useAppStore((s) => s.finishIntent);
  const detailId = route?.serverId ?? null;
  const [search, setSearch] = useState('');
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('all');
  const presets = useTrackedCalls<PresetId>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const actions: ServerActions = {
    start: (id) => api.startServer({ id }),
    stop: (id) => api.stopServer({ id }),
    restart: (id) => api.restartServer({ id }),
    remove: (id) => api.removeServer({ id }),
    setEnabled: (id, enabled) => api.setServerEnabled({ id, enabled }),
    signIn: (id) => api.signIn({ id }),
    signOut: (id) => api.signOut({ id }),
  };
  // Add, Import and Find asked for from elsewhere (the command palette): open until closed like any other.
  const requested = intent && intent.kind in REQUESTED_DIALOGS ? intent : null;
  const dialog: Dialog = ownDialog ?? (requested ? { kind: REQUESTED_DIALOGS[requested.kind as keyof typeof REQUESTED_DIALOGS] } : null);
  const setDialog = (next: Dialog) => {
    if (requested) finishIntent(requested);
    setOwnDialog(next);
  };
  // Find servers, Install bundle and links pasted into Import servers share one install dialog. It opens
  // over Find servers, so Cancel (or Escape) returns to the results; an install closes both.
  const install = useInstallFlow(api, { onInstalled: () => setDialog(null) });
  const editing = dialog?.kind === 'edit' ? servers.find((s) => s.config.id === dialog.id) : undefined;
  const detail = detailId ? servers.find((s) => s.config.id === detailId) : undefined;
  const openDetail = (id: string) => go({ page: 'servers', serverId: id, tab: 'overview' });

  // An address naming a server that is not there (removed, or a stale link): the list, saying so.
  const gone = loaded && detailId !== null && !detail;
  useEffect(() => {
    if (gone) go({ page: 'servers' }, { replace: true, notice: 'That server no longer exists: it may have been removed.' });
  }, [gone, go]);

  const close = (open: boolean) => !open && setDialog(null);
  const edit = (id: string, focus?: FocusField) => setDialog({ kind: 'edit', id, ...(focus ? { focus } : {}) });
  const diagnose = (id: string) => setDialog({ kind: 'diagnose', id });
  const diagnosing = dialog?.kind === 'diagnose' ? servers.find((s) => s.config.id === dialog.id) : undefined;
  const addPreset = (preset: PresetId) => void presets.run(preset, () => api.addPresetServer({ preset }));
  // A second copy of a quick-add server is possible (a separate process), but rarely meant: ask first.
  const quickAdd = (preset: PresetId) =>
    servers.some((s) => s.config.preset === preset) ? setDialog({ kind: 'duplicate', preset }) : addPreset(preset);
  const shown = servers.filter((s) => inStatusFilter(s.runtime.status, statusFilter) && matchesServerSearch(s, search));

  return (
    <section aria-labelledby="page-title" className="page servers-page">
      <h1 id="page-title">Servers</h1>
      {detail ? (
        <ServerDetail
          server={detail}
          tab={route?.tab ?? 'overview'}
          tool={route?.tool}
          onNavigate={(tab, tool) => go({ page: 'servers', serverId: detail.config.id, tab, ...(tool ? { tool } : {}) })}
          onBack={() => go({ page: 'servers' })}
          onEdit={edit}
          onDiagnose={diagnose}
        />
      ) : (
        <>
          <div className="actions page-actions">
            <button type="button" className="primary" onClick={() => setDialog({ kind: 'add' })}>
              <Icon icon={Plus} />
              Add server
            </button>
            <button type="button" className="secondary" onClick={() => setDialog({ kind: 'import' })}>
              <Icon icon={FileInput} />
              Import servers
            </button>
            <button type="button" className="secondary" onClick={() => setDialog({ kind: 'find' })}>
              <Icon icon={Search} />
              Find servers
            </button>
            <FilePickerButton
              label="Install bundle"
              accept=".mcpb"
              disabled={install.busy !== null}
              onFile={(file) => void install.openBundleFile(file)}
            />
            <span role="status" className="save-state">
              {install.busy}
            </span>
          </div>
          <Alert message={install.error} />
          <SandboxOffer />
          <div role="group" aria-labelledby="quick-add-title" className="quick-add">
            <span id="quick-add-title" className="muted">
              Quick add
            </span>
            {PRESET_IDS.map((preset) => (
              <button
                key={preset}
                type="button"
                className="secondary"
                disabled={presets.isPending(preset)}
                onClick={() => quickAdd(preset)}
              >
                {PRESET_LABELS[preset]}
              </button>
            ))}
          </div>
          <Alert message={presets.failure && `Could not add ${PRESET_LABELS[presets.failure.key]}: ${presets.failure.message}`} />
          {!loaded ? (
            <p className="muted">Loading servers…</p>
          ) : servers.length === 0 ? (
            <EmptyState icon={Server}>No servers yet. Add one, import your existing configuration, or try a quick-add server.</EmptyState>
          ) : (
            <>
              <div className="server-toolbar">
                <ServerListFilters
                  servers={servers}
                  search={search}
                  onSearch={setSearch}
                  status={statusFilter}
                  onStatus={setStatusFilter}
                  shown={shown.length}
                />
                <BulkActions servers={shown} selected={selected} onSelect={setSelected} start={actions.start} stop={actions.stop} />
              </div>
              {shown.length === 0 ? (
                <p className="muted empty-state">
                  No server matches{search.trim() ? ` “${search.trim()}”` : ''}
                  {statusFilter !== 'all' ? ' with that status' : ''}.{' '}
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      setSearch('');
                      setStatusFilter('all');
                    }}
                  >
                    Show all servers
                  </button>
                </p>
              ) : (
                <ul role="list" className="server-list" aria-label="Servers">
                  {shown.map((server) => (
                    <ServerCard
                      key={server.config.id}
                      server={server}
                      actions={actions}
                      onOpen={openDetail}
                      onEdit={edit}
                      onDiagnose={diagnose}
                      selected={selected.has(server.config.id)}
                      onSelect={(id, on) => setSelected((old) => toggled(old, id, on))}
                    />
                  ))}
                </ul>
              )}
            </>
          )}
        </>
      )}
      <ServerFormDialog
        key={dialog?.kind === 'edit' ? dialog.id : 'add'}
        open={dialog?.kind === 'add' || (dialog?.kind === 'edit' && editing !== undefined)}
        server={editing?.config}
        focusField={dialog?.kind === 'edit' ? dialog.focus : undefined}
        sandboxSupport={sandboxSupport}
        onOpenChange={close}
        onSubmit={(input) => (editing ? api.updateServer({ id: editing.config.id, server: input }) : api.addServer(input))}
      />
      <ImportDialog
        open={dialog?.kind === 'import'}
        onOpenChange={close}
        api={api}
        onInstallLink={(link) => {
          setDialog(null);
          void install.openLink(link);
        }}
      />
      <FindServersDialog open={dialog?.kind === 'find'} api={api} onOpenChange={close} onPlan={install.showPlan} />
      {dialog?.kind === 'duplicate' && (
        <Modal
          open
          role="alertdialog"
          onOpenChange={close}
          title={`Add another ${PRESET_LABELS[dialog.preset]}?`}
          description={`You already have ${PRESET_LABELS[dialog.preset]}. Another one runs as a separate server with a numbered name.`}
        >
          <div className="actions">
            <button
              type="button"
              onClick={() => {
                setDialog(null);
                addPreset(dialog.preset);
              }}
            >
              Add another
            </button>
            <button type="button" className="secondary" onClick={() => setDialog(null)} data-autofocus>
              Cancel
            </button>
          </div>
        </Modal>
      )}
      {diagnosing && (
        <DiagnoseDialog
          api={api}
          serverId={diagnosing.config.id}
          serverName={diagnosing.config.name}
          onClose={() => setDialog(null)}
          onEdit={(field) => edit(diagnosing.config.id, field)}
          onStart={() => {
            setDialog(null);
            void api.startServer({ id: diagnosing.config.id }).catch(() => undefined);
          }}
        />
      )}
      {install.dialog}
    </section>
  );
}
