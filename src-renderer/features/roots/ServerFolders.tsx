import type { RootSharingView, RootView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { FolderChoice, type FolderSelection } from './FolderChoice';
import { useSandboxRestartConfirm } from './sandbox-restart';
import './roots.css';
import { Alert } from '../../ui/Alert';

export interface ServerFoldersProps {
  serverName: string;
  roots: RootView[];
  /** Undefined while undecided. */
  sharing: RootSharingView | undefined;
  onChange(selection: FolderSelection): Promise<unknown>;
}

/** What one server may see, changeable at any time; each change applies (and reaches the server) at once. */
export function ServerFolders({ serverName, roots, sharing, onChange }: ServerFoldersProps) {
  const calls = useTrackedCalls<'save'>();
  const value: FolderSelection | null = sharing && sharing.mode !== 'undecided' ? { mode: sharing.mode, rootIds: sharing.rootIds } : null;
  return (
    <section className="server-folders" aria-labelledby="server-folders-title">
      <h3 id="server-folders-title">Folders</h3>
      {!value && <p className="hint">Not decided yet: you will be asked when {serverName} first wants folders. Until then it sees none.</p>}
      <FolderChoice
        legend={`Folders ${serverName} may see`}
        roots={roots}
        value={value}
        allowNone
        disabled={calls.isPending('save')}
        onChange={(selection) => void calls.run('save', () => onChange(selection))}
      />
      <Alert message={calls.failure?.message} prefix="Could not change the folders:" />
    </section>
  );
}

/** The server page's "Folders" section, wired to the store (so the servers feature only places it). */
export function ServerFoldersSection({ serverId, serverName }: { serverId: string; serverName: string }) {
  const api = useAppStore((s) => s.api);
  const roots = useAppStore((s) => s.roots);
  const sharing = useAppStore((s) => s.rootSharing[serverId]);
  const restart = useSandboxRestartConfirm();
  return (
    <>
      <ServerFolders
        serverName={serverName}
        roots={roots}
        sharing={sharing}
        onChange={(selection) =>
          restart.confirm({ serverId }, () => api.setRootSharing({ serverId, mode: selection.mode, rootIds: selection.rootIds }))
        }
      />
      {restart.dialog}
    </>
  );
}
