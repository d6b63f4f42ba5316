import { useEffect, useState } from 'react';
import type { RootSharingView, RootView, ServerView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { useAppStore } from '../../stores/use-app-store';
import { draftFrom, toServerInput } from './server-form-model';
import { Alert } from '../../ui/Alert';

/** The folders a server would see in its sandbox: those shared with it now (available ones). */
function sharedWith(sharing: RootSharingView | undefined, roots: readonly RootView[]): RootView[] {
  const available = roots.filter((root) => root.available);
  if (sharing?.mode === 'all') return available;
  if (sharing?.mode === 'subset') return available.filter((root) => sharing.rootIds.includes(root.id));
  return [];
}

/**
 * The one-time offer (Servers page) to the local servers that ran unsandboxed before the sandbox was
 * the default: each with what it would see inside, moved one by one or all at once, or kept as they
 * are. Nothing moves unless the user says so; once answered (or every listed server moved or gone) it
 * is never shown again (the host keeps that in the settings).
 */
export function SandboxOffer() {
  const api = useAppStore((s) => s.api);
  const offer = useAppStore((s) => s.settings?.sandboxOffer);
  const servers = useAppStore((s) => s.servers);
  const roots = useAppStore((s) => s.roots);
  const sharing = useAppStore((s) => s.rootSharing);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const waiting = (offer?.state === 'open' ? offer.serverIds : [])
    .map((id) => servers[id])
    .filter((server): server is ServerView => server?.config.transport === 'stdio' && server.config.sandbox?.enabled !== true);
  const open = offer?.state === 'open';
  const settled = open && waiting.length === 0;

  const answer = () => api.updateSettings({ sandboxOffer: { state: 'answered', serverIds: [] } });
  // Every server it listed was moved (here or in Edit) or removed: the question is answered.
  useEffect(() => {
    if (settled) void answer().catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- answered once, when it becomes settled
  }, [settled]);
  if (!open || settled) return null;

  const run = async (action: () => Promise<unknown>) => {
    setState({ busy: true });
    try {
      await action();
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error: messageOf(error) });
    }
  };
  // The default for new servers: sandboxed, network allowed (the internet through Patchbay's proxy).
  const move = async (server: ServerView) => {
    const draft = { ...draftFrom(server.config), sandbox: true, sandboxNetwork: 'allowed' as const, sandboxHosts: '' };
    const result = toServerInput(draft, server.config);
    if ('errors' in result) throw new Error(`“${server.config.name}”: its stored configuration could not be read back.`);
    await api.updateServer({ id: server.config.id, server: result.input });
  };

  return (
    <section className="notice sandbox-offer" aria-labelledby="sandbox-offer-title">
      <h2 id="sandbox-offer-title">Move servers into the sandbox?</h2>
      <p>
        These servers were added before servers ran sandboxed by default: they can read and write everything you can. In a sandbox each sees
        only what is listed, its own program (read-only) and a scratch folder of its own. Nothing moves unless you say so, and this is asked
        once.
      </p>
      <ul aria-label="Offered the move">
        {waiting.map((server) => {
          const folders = sharedWith(sharing[server.config.id], roots);
          return (
            <li key={server.config.id} aria-label={server.config.name}>
              <strong>{server.config.name}</strong>
              <span>
                {' '}
                would see{' '}
                {folders.length === 0
                  ? 'no shared folders'
                  : folders.map((root, i) => (
                      <span key={root.id}>
                        {i > 0 && ', '}
                        <code>{root.path}</code>
                        {root.readOnly && ' (read only)'}
                      </span>
                    ))}
                ; network: the internet through Patchbay, not this computer’s own ports.
              </span>{' '}
              <button
                type="button"
                className="secondary"
                aria-label={`Move ${server.config.name} into the sandbox`}
                disabled={state.busy}
                onClick={() => void run(() => move(server))}
              >
                Move into the sandbox
              </button>
            </li>
          );
        })}
      </ul>
      <p className="hint">If a moved server needs a folder it cannot see, its Overview names it, with Share folder and Run unsandboxed.</p>
      <div className="actions">
        <button
          type="button"
          disabled={state.busy}
          onClick={() =>
            void run(async () => {
              for (const server of waiting) await move(server);
              await answer();
            })
          }
        >
          Move all into the sandbox
        </button>
        <button type="button" className="secondary" disabled={state.busy} onClick={() => void run(answer)}>
          Keep them as they are
        </button>
      </div>
      <Alert message={state.error} tone="field-error" />
    </section>
  );
}
