import { useState } from 'react';
import type { LaunchFixField, ServerView, SignInStart } from '@contract';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { FailureOutput } from './FailureOutput';
import { LaunchProblemView } from './LaunchProblemView';
import { RemoveServerDialog } from './RemoveServerDialog';
import { ServerAuth } from './ServerAuth';
import {
  countsText,
  protocolLabel,
  REMOTE_TRANSPORT_LABELS,
  RUN_ACTION_LABELS,
  runActions,
  sandboxWords,
  shortSessionId,
  type RunAction,
} from './server-status';
import { StatusBadge } from './StatusBadge';
import { Switch } from '../../ui/Switch';
import { Pencil, Play, RotateCw, Square, Stethoscope, Trash2, type LucideIcon } from 'lucide-react';
import { Icon } from '../../ui/Icon';
import { RelativeTime } from '../../ui/RelativeTime';

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
  /** Whether the row is ticked for Start / Stop of several at once (no checkbox without `onSelect`). */
  selected?: boolean;
  onSelect?(id: string, selected: boolean): void;
}

type CardCall = RunAction | 'remove' | 'enable' | 'disable';

const RUN_ICONS: Record<RunAction, LucideIcon> = { start: Play, stop: Square, restart: RotateCw };

/** The label of the switch: what it decides, in words (it is the stored "enabled" flag). */
export const STARTS_WITH_PATCHBAY = 'Starts with Patchbay';

/**
 * One server as one row of the list: tick box, status, name (with what it reports being), what it
 * offers, its sandbox and network, and its actions. The action its state calls for has words; the
 * others are quiet icon buttons named by their words, so fifteen rows are not a wall of blue. A failure
 * adds what went wrong, in full, under the row. Render inside a list.
 */
export function ServerCard({ server, actions, onOpen, onEdit, onDiagnose, selected, onSelect }: ServerCardProps) {
  const { config, runtime } = server;
  const id = config.id;
  const calls = useTrackedCalls<CardCall>();
  const [confirming, setConfirming] = useState(false);
  const busy = (key: CardCall) => calls.isPending(key);
  const failed = runtime.status === 'error' || runtime.status === 'crashed';
  const { primary, secondary } = runActions(runtime);
  const protocol = protocolLabel(runtime);
  const reported = runtime.serverInfo;
  const sandbox = sandboxWords(config);
  const runButton = (action: RunAction, primaryButton: boolean) => (
    <button
      key={action}
      type="button"
      className={primaryButton ? 'quiet row-primary' : 'quiet icon-only'}
      aria-label={primaryButton ? undefined : RUN_ACTION_LABELS[action]}
      title={primaryButton ? undefined : RUN_ACTION_LABELS[action]}
      disabled={busy(action)}
      onClick={() => void calls.run(action, () => actions[action](id))}
    >
      <Icon icon={RUN_ICONS[action]} />
      {primaryButton && RUN_ACTION_LABELS[action]}
    </button>
  );

  return (
    <li className="server-row" aria-label={config.name} data-status={runtime.status} data-selected={selected ? 'true' : undefined}>
      <div className="server-row-line">
        {onSelect ? (
          <input
            type="checkbox"
            className="server-row-select"
            aria-label={`Select ${config.name}`}
            checked={selected ?? false}
            onChange={(e) => onSelect(id, e.target.checked)}
          />
        ) : (
          <span />
        )}
        <StatusBadge runtime={runtime} compact />
        <div className="server-row-name">
          <h3 className="server-name">
            <button type="button" className="link" onClick={() => onOpen(id)} title="Show details">
              {config.name}
            </button>
          </h3>
          <span className="muted server-row-sub">
            {config.transport === 'http' ? (
              <>
                <code>{config.url}</code>
                {runtime.remote && <span>{REMOTE_TRANSPORT_LABELS[runtime.remote.transport]}</span>}
                {runtime.remote?.sessionId && <code title={runtime.remote.sessionId}>{shortSessionId(runtime.remote.sessionId)}</code>}
              </>
            ) : (
              reported && (
                <span>
                  {reported.title ? `${reported.title} (${reported.name})` : reported.name} {reported.version}
                </span>
              )
            )}
            {protocol && (
              <span className="server-row-protocol" title={protocol.detail}>
                {protocol.label}
              </span>
            )}
          </span>
        </div>
        <span className="server-row-offers">
          {runtime.counts ? countsText(runtime.counts) : <span className="muted">{runtime.status === 'ready' ? 'Nothing' : '—'}</span>}
          {runtime.status === 'starting' && runtime.detail && <span className="muted server-row-sub">{runtime.detail}</span>}
        </span>
        <span className="server-row-sandbox" data-sandboxed={sandbox.sandboxed ? 'true' : 'false'} title={runtime.sandbox?.summary}>
          {sandbox.text}
        </span>
        <Switch
          className="server-row-enabled"
          title="Whether Patchbay starts this server when it starts. Start and Stop set it too."
          checked={config.enabled}
          disabled={busy('enable') || busy('disable')}
          onChange={(on) => void calls.run(on ? 'enable' : 'disable', () => actions.setEnabled(id, on))}
        >
          <span className="visually-hidden">{STARTS_WITH_PATCHBAY}</span>
        </Switch>
        <div className="server-row-actions">
          {runButton(primary, true)}
          {secondary.map((action) => runButton(action, false))}
          {failed && onDiagnose && (
            <button type="button" className="quiet" onClick={() => onDiagnose(id)}>
              <Icon icon={Stethoscope} />
              Diagnose
            </button>
          )}
          <button type="button" className="quiet icon-only" aria-label="Edit" title="Edit" onClick={() => onEdit(id)}>
            <Icon icon={Pencil} />
          </button>
          <button
            type="button"
            className="quiet icon-only danger-quiet"
            aria-label="Remove"
            title="Remove"
            disabled={busy('remove')}
            onClick={() => setConfirming(true)}
          >
            <Icon icon={Trash2} />
          </button>
        </div>
      </div>
      {(runtime.auth ||
        failed ||
        runtime.launch ||
        calls.failure ||
        (runtime.restart && !failed) ||
        (runtime.reason && !failed && runtime.status !== 'stopped')) && (
        <div className="server-row-more">
          {runtime.restart && !failed && (
            <p className="muted server-row-note">
              <span>{runtime.status === 'starting' ? 'Next try' : 'Restart'}</span>{' '}
              <span>
                Attempt {runtime.restart.attempt} of {runtime.restart.of}, <RelativeTime iso={runtime.restart.at} future />
              </span>
            </p>
          )}
          {runtime.reason && !failed && runtime.status !== 'stopped' && <p className="muted">{runtime.reason}</p>}
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
        </div>
      )}
      {/* Mounted only while asked: thirty rows do not each build a dialog nobody opened. */}
      {confirming && (
        <RemoveServerDialog
          name={config.name}
          open
          onOpenChange={setConfirming}
          onConfirm={() => {
            setConfirming(false);
            void calls.run('remove', () => actions.remove(id));
          }}
        />
      )}
    </li>
  );
}
