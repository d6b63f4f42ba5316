import { useState } from 'react';
import type { LaunchFixField, ServerView, SignInStart } from '@contract';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { FailureOutput } from './FailureOutput';
import { LaunchProblemView } from './LaunchProblemView';
import { RemoveServerDialog } from './RemoveServerDialog';
import { RuntimeFacts } from './RuntimeFacts';
import { ServerAuth } from './ServerAuth';
import { RUN_ACTION_LABELS, runActions, type RunAction } from './server-status';
import { NETWORK_LABELS } from './SandboxFields';
import { StatusBadge } from './StatusBadge';
import { Switch } from '../../ui/Switch';
import { Pencil, Play, RotateCw, Square, Stethoscope, Trash2, type LucideIcon } from 'lucide-react';
import { Icon } from '../../ui/Icon';

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
  /** Opens the server's form (with the cursor in `field`, for a launch problem's fix). */
  onEdit(id: string, field?: LaunchFixField): void;
  /** Re-runs the launch step by step (offered while it is in Error or Crashed). */
  onDiagnose?(id: string): void;
}

type CardCall = RunAction | 'remove' | 'enable' | 'disable';

const RUN_ICONS: Record<RunAction, LucideIcon> = { start: Play, stop: Square, restart: RotateCw };

/** The label of the switch: what it decides, in words (it is the stored "enabled" flag). */
export const STARTS_WITH_PATCHBAY = 'Starts with Patchbay';

/**
 * One server as a compact row: its name, what it is doing now, the facts that tell it apart, and one
 * primary action for its state (see `runActions`). A failure shows what went wrong in full, as it was
 * written. Render inside a list.
 */
export function ServerCard({ server, actions, onOpen, onEdit, onDiagnose }: ServerCardProps) {
  const { config, runtime } = server;
  const id = config.id;
  const calls = useTrackedCalls<CardCall>();
  const [confirming, setConfirming] = useState(false);
  const busy = (key: CardCall) => calls.isPending(key);
  const failed = runtime.status === 'error' || runtime.status === 'crashed';
  const { primary, secondary } = runActions(runtime);
  const runButton = (action: RunAction, primaryButton: boolean) => (
    <button
      key={action}
      type="button"
      className={primaryButton ? 'primary' : 'secondary'}
      disabled={busy(action)}
      onClick={() => void calls.run(action, () => actions[action](id))}
    >
      <Icon icon={RUN_ICONS[action]} />
      {RUN_ACTION_LABELS[action]}
    </button>
  );

  return (
    <li className="card server-card server-row" aria-label={config.name} data-status={runtime.status}>
      <div className="server-card-head">
        <h3 className="server-name">
          <button type="button" className="link" onClick={() => onOpen(id)} title="Show details">
            {config.name}
          </button>
        </h3>
        <StatusBadge runtime={runtime} />
        <Switch
          title="Whether Patchbay starts this server when it starts. Start and Stop set it too."
          checked={config.enabled}
          disabled={busy('enable') || busy('disable')}
          onChange={(on) => void calls.run(on ? 'enable' : 'disable', () => actions.setEnabled(id, on))}
        >
          {STARTS_WITH_PATCHBAY}
        </Switch>
      </div>
      {config.transport === 'http' && (
        <p className="muted server-target">
          <code>{config.url}</code>
        </p>
      )}
      {config.transport === 'stdio' && (
        // Whether it is confined, and how, on its row: unsandboxed is never left to be guessed.
        <p className="muted server-sandbox">{sandboxRowText(config.sandbox)}</p>
      )}
      <RuntimeFacts runtime={runtime} compact />
      {runtime.auth && <ServerAuth auth={runtime.auth} signIn={() => actions.signIn(id)} signOut={() => actions.signOut(id)} />}
      {failed && <FailureOutput serverName={config.name} runtime={runtime} />}
      {runtime.launch && <LaunchProblemView serverName={config.name} problem={runtime.launch} onEdit={(field) => onEdit(id, field)} />}
      {calls.failure && (
        <div role="alert" className="warning card-error">
          Could not {calls.failure.key} {config.name}: {calls.failure.message}{' '}
          <button type="button" className="link" onClick={calls.dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <div className="actions">
        {runButton(primary, true)}
        {secondary.map((action) => runButton(action, false))}
        {failed && onDiagnose && (
          <button type="button" className="secondary" onClick={() => onDiagnose(id)}>
            <Icon icon={Stethoscope} />
            Diagnose
          </button>
        )}
        <button type="button" className="secondary" onClick={() => onEdit(id)}>
          <Icon icon={Pencil} />
          Edit
        </button>
        <button type="button" className="danger" disabled={busy('remove')} onClick={() => setConfirming(true)}>
          <Icon icon={Trash2} />
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

/** "Sandboxed · network allowed" or "Not sandboxed", for a local server's row. */
function sandboxRowText(sandbox: ServerView['config']['sandbox']): string {
  if (!sandbox?.enabled) return 'Not sandboxed';
  return `Sandboxed · network ${NETWORK_LABELS[sandbox.network].toLowerCase()}`;
}
