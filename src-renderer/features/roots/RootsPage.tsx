import { useCallback, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RootSharingView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { RelativeTime } from '../../ui/RelativeTime';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { AddFolderDialog } from './AddFolderDialog';
import { RootItem } from './RootItem';
import { useSandboxRestartConfirm } from './sandbox-restart';
import './roots.css';
import { Icon } from '../../ui/Icon';
import { FolderOpen, FolderPlus } from 'lucide-react';
import { EmptyState } from '../../ui/EmptyState';
import { Alert } from '../../ui/Alert';

const sees = (sharing: RootSharingView | undefined, rootId: string) =>
  sharing?.mode === 'all' || (sharing?.mode === 'subset' && sharing.rootIds.includes(rootId));

/** The Roots page: the folders servers may be given, who sees which, and what was shared lately. */
export function RootsPage() {
  const api = useAppStore((s) => s.api);
  const mode = useAppStore((s) => s.info?.mode);
  const roots = useAppStore((s) => s.roots);
  const sharing = useAppStore((s) => s.rootSharing);
  const audit = useAppStore((s) => s.rootsAudit);
  const servers = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.servers[id]?.config).filter((c) => c !== undefined)));
  const [adding, setAdding] = useState(false);
  const picker = useTrackedCalls<'pick'>();
  const listFolders = useCallback((path: string) => api.listFolders({ path }), [api]);
  // Folders that move a running sandboxed server's boundary restart it: asked first.
  const restart = useSandboxRestartConfirm();

  const addFolder = () => {
    if (mode !== 'electron') return setAdding(true);
    void picker.run('pick', async () => {
      const { path } = await api.pickFolder();
      if (path) await restart.confirm({ addedFolder: true }, () => api.addRoot({ path }));
    });
  };
  const sharedWith = (rootId: string) => servers.filter((server) => sees(sharing[server.id], rootId)).map((server) => server.name);

  return (
    <section aria-labelledby="page-title" className="page roots-page">
      <h1 id="page-title">Roots</h1>
      <p className="muted">
        Folders you can share with servers. A server sees only the folders you share with it: it asks the first time, and you can change
        your answer on its server page. Servers that already had a folder are restarted when you take their last one away, so they really
        lose access.
      </p>
      <div className="actions page-actions">
        <button type="button" className="primary" onClick={addFolder} disabled={picker.isPending('pick')}>
          <Icon icon={FolderPlus} />
          Add folder
        </button>
      </div>
      <Alert message={picker.failure?.message} prefix="Could not add the folder:" />
      {roots.length === 0 ? (
        <EmptyState icon={FolderOpen}>No folders yet. Add one to let servers work in it.</EmptyState>
      ) : (
        <ul role="list" className="server-list" aria-label="Folders">
          {roots.map((root) => (
            <RootItem
              key={root.id}
              root={root}
              sharedWith={sharedWith(root.id)}
              onRename={(name) => api.renameRoot({ id: root.id, name })}
              onRemove={() => restart.confirm({ rootId: root.id }, () => api.removeRoot({ id: root.id }))}
              onReadOnly={(readOnly) => restart.confirm({ rootId: root.id }, () => api.setRootReadOnly({ id: root.id, readOnly }))}
            />
          ))}
        </ul>
      )}
      <h2>Recent sharing</h2>
      {audit.length === 0 ? (
        <p className="muted">Nothing shared yet.</p>
      ) : (
        <ul className="roots-audit" aria-label="Recent sharing">
          {audit.slice(0, 15).map((entry) => (
            <li key={entry.id}>
              <RelativeTime iso={entry.at} /> · <strong>{entry.serverName}</strong> · {entry.detail}
              {entry.roots.length > 0 && `: ${entry.roots.map((r) => r.name || r.uri).join(', ')}`}
            </li>
          ))}
        </ul>
      )}
      <AddFolderDialog
        open={adding}
        onOpenChange={setAdding}
        listFolders={listFolders}
        onAdd={(path) => restart.confirm({ addedFolder: true }, () => api.addRoot({ path }))}
      />
      {restart.dialog}
    </section>
  );
}
