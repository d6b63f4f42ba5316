import { useState } from 'react';
import type { SandboxRuntime, ServerView } from '@contract';
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

/** What the sandbox hides or shows read-only of what the server needs: a path it failed on, paths its launch names. */
function sandboxTrouble(seen: SandboxPaths | undefined): { lines: { verb: string; path: string; rest: string }[]; folders: string[] } {
  const lines: { verb: string; path: string; rest: string }[] = [];
  const folders: string[] = [];
  if (seen?.blockedPath) {
    lines.push({ verb: 'could not read', path: seen.blockedPath, rest: ': outside the sandbox.' });
    folders.push(folderOf(seen.blockedPath));
  }
  for (const note of seen?.pathNotes ?? []) {
    if (note.path === seen?.blockedPath) continue;
    lines.push({
      verb: 'is given',
      path: note.path,
      rest: ` (its ${note.from}), which the sandbox ${note.kind === 'hidden' ? 'hides from it' : 'shows only read-only'}.`,
    });
    folders.push(note.folder);
  }
  return { lines, folders: [...new Set(folders)] };
}

/** What the notice reads: a path the server failed on, paths its launch names. */
type SandboxPaths = Pick<SandboxRuntime, 'blockedPath' | 'pathNotes'>;

/**
 * A sandboxed server tripped over, or is given, a path its sandbox hides (or shows read-only): say
 * so, and offer the two ways out — share those folders with it (it restarts inside the wider
 * boundary), or run it without a sandbox. On the Overview (its running launch) and in Diagnose (`seen`:
 * the diagnosed launch, and `onDone` runs the diagnosis again instead of starting the server).
 */
export function SandboxBlockedNotice({ server, seen, onDone }: { server: ServerView; seen?: SandboxPaths; onDone?: () => void }) {
  const api = useAppStore((s) => s.api);
  const roots = useAppStore((s) => s.roots);
  const sharing = useAppStore((s) => s.rootSharing[server.config.id]);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const trouble = sandboxTrouble(seen ?? server.runtime.sandbox);
  if (trouble.lines.length === 0) return null;
  const { config } = server;

  const run = async (action: () => Promise<unknown>) => {
    setState({ busy: true });
    try {
      await action();
      setState({ busy: false });
      onDone?.();
    } catch (error) {
      setState({ busy: false, error: messageOf(error) });
    }
  };
  const shareFolder = () =>
    run(async () => {
      const ids = sharing?.mode === 'subset' ? [...sharing.rootIds] : [];
      for (const folder of trouble.folders) ids.push((roots.find((r) => r.path === folder) ?? (await api.addRoot({ path: folder }))).id);
      if (sharing?.mode !== 'all') await api.setRootSharing({ serverId: config.id, mode: 'subset', rootIds: [...new Set(ids)] });
      if (!onDone) await api.startServer({ id: config.id });
    });
  const runUnsandboxed = () =>
    run(async () => {
      const result = toServerInput({ ...draftFrom(config), sandbox: false }, config);
      if ('errors' in result) throw new Error('The stored configuration could not be read back.');
      await api.updateServer({ id: config.id, server: result.input });
    });

  return (
    <div className="notice sandbox-blocked" role="alert">
      {trouble.lines.map((line) => (
        <p key={line.path}>
          “{config.name}” {line.verb} <code>{line.path}</code>
          {line.rest}
        </p>
      ))}
      <p>
        Share{' '}
        {trouble.folders.map((f, i) => (
          <span key={f}>
            {i > 0 && ', '}
            <code>{f}</code>
          </span>
        ))}{' '}
        with it, or run it without a sandbox.
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

/** Everything its sandbox mounts, truthfully: shared folders, its own code, its scratch folder, the system. */
export function SandboxMounts({ server }: { server: ServerView }) {
  const mounts = server.runtime.sandbox?.mounts;
  if (!mounts || mounts.length === 0) return null;
  return (
    <ul className="sandbox-mounts" aria-label="What its sandbox mounts">
      {mounts.map((mount) => (
        <li key={`${mount.path}-${mount.access}`}>
          <code>{mount.path}</code> — {mount.access === 'read-write' ? 'reads and writes' : 'reads only'}: {mount.what}
        </li>
      ))}
    </ul>
  );
}
