import { useState } from 'react';
import type { HostApi, UpdateState } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { RelativeTime } from '../../ui/RelativeTime';
import { Progress } from '../../ui/Progress';
import { Alert } from '../../ui/Alert';

/** The updater's state in words. */
function StateLine({ state }: { state: UpdateState }) {
  switch (state.status) {
    case 'unsupported':
      return <>Not applicable: {state.reason}</>;
    case 'off':
      return <>Updates are off. Turn on “Check for updates” above to check at start and daily.</>;
    case 'idle':
      return (
        <>
          On: Patchbay checks at start and daily
          {state.lastCheckedAt ? (
            <>
              {' '}
              (last <RelativeTime iso={state.lastCheckedAt} />)
            </>
          ) : null}
          .
        </>
      );
    case 'checking':
      return <>Checking for updates…</>;
    case 'up-to-date':
      return (
        <>
          Patchbay is up to date (checked <RelativeTime iso={state.checkedAt} />
          ).
        </>
      );
    case 'downloading':
      return (
        <>
          Downloading Patchbay {state.version} in the background:{' '}
          <Progress max={100} value={state.percent} label={`Download of Patchbay ${state.version}`} /> {state.percent}%
        </>
      );
    case 'ready':
      return (
        <>
          Patchbay {state.version} is downloaded
          {state.installOnQuit ? ' and will be installed when Patchbay quits' : ' and ready to install'}.
        </>
      );
    case 'error':
      return (
        <>
          The last check failed <RelativeTime iso={state.at} />: {state.message}. Patchbay keeps working; it tries again at the next check.
        </>
      );
  }
}

/**
 * Settings › Updates: where the updater stands, a manual check, and — once an update is downloaded —
 * the user's consent to install it now or on quit. Web mode says it does not apply.
 */
export function UpdatePanel({ state, api }: { state: UpdateState | null; api: Pick<HostApi, 'checkForUpdates' | 'installUpdate'> }) {
  const [failure, setFailure] = useState<string | null>(null);
  const run = (call: () => Promise<unknown>) => {
    setFailure(null);
    call().catch((error: unknown) => setFailure(messageOf(error)));
  };
  if (!state) return null;
  const canCheck = state.status === 'idle' || state.status === 'up-to-date' || state.status === 'error';
  return (
    <section aria-labelledby="updates-title" className="card">
      <h2 id="updates-title">Updates</h2>
      <p role="status" data-testid="update-state">
        <StateLine state={state} />
      </p>
      <Alert message={failure} />
      <div className="actions">
        {state.status !== 'unsupported' && state.status !== 'off' && (
          <button type="button" disabled={!canCheck} onClick={() => run(() => api.checkForUpdates())}>
            Check now
          </button>
        )}
        {state.status === 'ready' && (
          <>
            <button type="button" onClick={() => run(() => api.installUpdate({ when: 'now' }))}>
              Restart and install
            </button>
            {!state.installOnQuit && (
              <button type="button" className="secondary" onClick={() => run(() => api.installUpdate({ when: 'on-quit' }))}>
                Install when I quit
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}
