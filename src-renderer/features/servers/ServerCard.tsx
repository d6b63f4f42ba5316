import { useId, useState } from 'react';
import type { ServerView, SignInStart } from '../../../src-preload/contract';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { RemoveServerDialog } from './RemoveServerDialog';
import { RuntimeFacts } from './RuntimeFacts';
import { ServerAuth } from './ServerAuth';
import { canStart } from './server-status';
import { StatusBadge } from './StatusBadge';

/** The host calls a card can make; each resolves once the host answered. */
export interface ServerActions {
  start(id: string): Promise<unknown>;
  stop(id: string): Promise<unknown>;
  restart(id: string): Promise<unknown>;
  remove(id: string): Promise<unknown>;
  setEnabled(id: string, enabled: boolean): Promise<unknown>;
  /** Starts an OAuth sign-in of a remote server (see `useSignIn` for getting the user to the page). */
  signIn(id: string): Promise<SignInStart>;
  signOut(id: string): Promise<unknown>;
}

export interface ServerCardProps {
  server: ServerView;
  actions: ServerActions;
  /** Opens the server's detail view. */
  onOpen(id: string): void;
  onEdit(id: string): void;
}

type CardCall = 'start' | 'stop' | 'restart' | 'remove' | 'enable' | 'disable';

/** One server: what it is doing right now, and the buttons to change that. Render inside a list. */
export function ServerCard({ server, actions, onOpen, onEdit }: ServerCardProps) {
  const { config, runtime } = server;
  const id = config.id;
  const calls = useTrackedCalls<CardCall>();
  const [confirming, setConfirming] = useState(false);
  const outputId = useId();
  const busy = (key: CardCall) => calls.isPending(key);
  const failed = runtime.status === 'error' || runtime.status === 'crashed';

  return (
    <li className="card server-card" aria-label={config.name} data-status={runtime.status}>
      <div className="server-card-head">
        <h3 className="server-name">
          <button type="button" className="link" onClick={() => onOpen(id)} title="Show details">
            {config.name}
          </button>
        </h3>
        <StatusBadge runtime={runtime} />
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={config.enabled}
            disabled={busy('enable') || busy('disable')}
            onChange={(e) => void calls.run(e.target.checked ? 'enable' : 'disable', () => actions.setEnabled(id, e.target.checked))}
          />
          Enabled
        </label>
      </div>
      {config.transport === 'http' && (
        <p className="muted server-target">
          <code>{config.url}</code>
        </p>
      )}
      <RuntimeFacts runtime={runtime} />
      {runtime.auth && <ServerAuth auth={runtime.auth} signIn={() => actions.signIn(id)} signOut={() => actions.signOut(id)} />}
      {failed && runtime.lastStderr && runtime.lastStderr.length > 0 && (
        <details className="last-output">
          <summary id={outputId}>Last output</summary>
          <pre aria-labelledby={outputId}>{runtime.lastStderr.join('\n')}</pre>
        </details>
      )}
      {calls.failure && (
        <div role="alert" className="warning card-error">
          Could not {calls.failure.key} {config.name}: {calls.failure.message}{' '}
          <button type="button" className="link" onClick={calls.dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <div className="actions">
        {canStart(runtime.status) ? (
          <button type="button" disabled={busy('start')} onClick={() => void calls.run('start', () => actions.start(id))}>
            Start
          </button>
        ) : (
          <button type="button" disabled={busy('stop')} onClick={() => void calls.run('stop', () => actions.stop(id))}>
            Stop
          </button>
        )}
        <button type="button" disabled={busy('restart')} onClick={() => void calls.run('restart', () => actions.restart(id))}>
          Restart
        </button>
        <button type="button" onClick={() => onEdit(id)}>
          Edit
        </button>
        <button type="button" className="danger" disabled={busy('remove')} onClick={() => setConfirming(true)}>
          Remove
        </button>
      </div>
      <RemoveServerDialog
        name={config.name}
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => {
          setConfirming(false);
          void calls.run('remove', () => actions.remove(id));
        }}
      />
    </li>
  );
}
