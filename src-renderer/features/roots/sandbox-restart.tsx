import { useRef, useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RootSharingView, ServerView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { Modal } from '../../ui/Modal';

/** Which folders a change touches: the servers whose sandbox it moves are the ones asked about. */
export type FolderChange = { serverId: string } | { rootId: string } | { addedFolder: true };

const GONE = new Set(['stopped', 'error', 'crashed']);

/** True when `server` runs now inside a sandbox (built with the folders shared at its start). */
const runsSandboxed = (server: ServerView | undefined): server is ServerView =>
  server?.runtime.sandbox !== undefined && !GONE.has(server.runtime.status);

const sees = (sharing: RootSharingView | undefined, rootId: string) =>
  sharing?.mode === 'all' || (sharing?.mode === 'subset' && sharing.rootIds.includes(rootId));

/** Names of the running sandboxed servers that `change` restarts (the host restarts them when their folders move). */
export function useRestartedBy(): (change: FolderChange) => string[] {
  const servers = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.servers[id]).filter(runsSandboxed)));
  const sharing = useAppStore((s) => s.rootSharing);
  return (change) =>
    servers
      .filter(({ config }) => {
        if ('serverId' in change) return config.id === change.serverId;
        if ('rootId' in change) return sees(sharing[config.id], change.rootId);
        return sharing[config.id]?.mode === 'all';
      })
      .map(({ config }) => config.name);
}

export interface SandboxRestartConfirm {
  /**
   * Runs `apply` at once when it restarts no running sandboxed server; otherwise first asks "Restart …?"
   * and runs it only on Restart now. Resolves when applied or cancelled (rejects when `apply` does).
   */
  confirm(change: FolderChange, apply: () => Promise<unknown>): Promise<unknown>;
  /** The question, to render once by the caller. */
  dialog: ReactNode;
}

/**
 * A sandboxed server sees only the folders its sandbox was built with, so the host restarts it when
 * the folders shared with it change (see roots-connections.ts). The user is told before it happens:
 * a change that would restart running servers asks first, naming them. Cancel leaves everything as it was.
 */
export function useSandboxRestartConfirm(): SandboxRestartConfirm {
  const restartedBy = useRestartedBy();
  const [asking, setAsking] = useState<string[] | null>(null);
  const pending = useRef<{ apply: () => Promise<unknown>; settle: (run: boolean) => void } | null>(null);

  const answer = (run: boolean) => {
    const held = pending.current;
    pending.current = null;
    setAsking(null);
    held?.settle(run);
  };

  return {
    confirm: (change, apply) => {
      const names = restartedBy(change);
      if (names.length === 0) return apply();
      pending.current?.settle(false);
      return new Promise<boolean>((resolve) => {
        pending.current = { apply, settle: resolve };
        setAsking(names);
      }).then((run) => (run ? apply() : undefined));
    },
    dialog: (
      <Modal
        open={asking !== null}
        onOpenChange={(open) => !open && answer(false)}
        role="alertdialog"
        title={asking?.length === 1 ? `Restart “${asking[0]}”?` : `Restart ${asking?.length ?? 0} servers?`}
        description={
          asking && (
            <>
              Restarting {asking.map((name) => `“${name}”`).join(', ')} so{' '}
              {asking.length === 1 ? 'its sandbox sees' : 'their sandboxes see'} the new folders. What{' '}
              {asking.length === 1 ? 'it is' : 'they are'} doing now is stopped.
            </>
          )
        }
      >
        <div className="actions">
          <button type="button" className="primary" data-autofocus onClick={() => answer(true)}>
            Restart now
          </button>
          <button type="button" className="secondary" onClick={() => answer(false)}>
            Cancel
          </button>
        </div>
      </Modal>
    ),
  };
}
