import { useState } from 'react';
import type { ServerView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { useAppStore } from '../../stores/use-app-store';
import { NETWORK_LABELS } from './SandboxFields';
import { draftFrom, toServerInput } from './server-form-model';

/** The Overview's Sandbox line, in words. */
export function sandboxText({ config, runtime }: ServerView): string {
  if (runtime.sandbox) return runtime.sandbox.summary;
  if (config.sandbox?.enabled) return `Sandboxed when it runs; network ${NETWORK_LABELS[config.sandbox.network].toLowerCase()}`;
  return 'Not sandboxed: it can read and write everything you can';
}

/** Parent folder of a path (the renderer has no `path` module). */
const folderOf = (file: string) => file.replace(/\/[^/]*\/?$/, '') || '/';

/**
 * A sandboxed server tripped over a path outside its sandbox: say so, and offer the two ways out —
 * share that folder with it (it restarts inside the wider boundary), or run it without a sandbox.
 */
export function SandboxBlockedNotice({ server }: { server: ServerView }) {
  const api = useAppStore((s) => s.api);
  const roots = useAppStore((s) => s.roots);
  const sharing = useAppStore((s) => s.rootSharing[server.config.id]);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const blocked = server.runtime.sandbox?.blockedPath;
  if (!blocked) return null;
  const { config } = server;
  const folder = folderOf(blocked);

  const run = async (action: () => Promise<unknown>) => {
    setState({ busy: true });
    try {
      await action();
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error: messageOf(error) });
    }
  };
  const shareFolder = () =>
    run(async () => {
      const root = roots.find((r) => r.path === folder) ?? (await api.addRoot({ path: folder }));
      const ids = sharing?.mode === 'subset' ? sharing.rootIds : [];
      if (sharing?.mode !== 'all')
        await api.setRootSharing({ serverId: config.id, mode: 'subset', rootIds: [...new Set([...ids, root.id])] });
      await api.startServer({ id: config.id });
    });
  const runUnsandboxed = () =>
    run(async () => {
      const result = toServerInput({ ...draftFrom(config), sandbox: false }, config);
      if ('errors' in result) throw new Error('The stored configuration could not be read back.');
      await api.updateServer({ id: config.id, server: result.input });
    });

  return (
    <div className="notice sandbox-blocked" role="alert">
      <p>
        “{config.name}” could not read <code>{blocked}</code>: outside the sandbox. Share <code>{folder}</code> with it, or run it without a
        sandbox.
      </p>
      <div className="actions">
        <button type="button" disabled={state.busy} onClick={() => void shareFolder()}>
          Share folder
        </button>
        <button type="button" className="secondary" disabled={state.busy} onClick={() => void runUnsandboxed()}>
          Run unsandboxed
        </button>
      </div>
      {state.error && <p className="field-error">{state.error}</p>}
    </div>
  );
}
