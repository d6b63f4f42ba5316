import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { OpenRequest } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { RelativeTime } from '../../ui/RelativeTime';
import { OpenRequestNotice } from './OpenRequestNotice';
import { Alert } from '../../ui/Alert';

type RejectedRequest = Extract<OpenRequest, { kind: 'rejected' }>;

/**
 * The app's own notices above every page: a window that crashed and was reloaded, an update ready to
 * install, and what the operating system asked Patchbay to open that it cannot use. Each says what
 * happened and can be dismissed; none blocks the page.
 */
export function AppNotices() {
  const api = useAppStore((s) => s.api);
  // Links and bundles to install open the install dialog (InstallFromOutside); refused requests are notices.
  const requests = useAppStore(
    useShallow((s) => s.openRequests.filter((request): request is RejectedRequest => request.kind === 'rejected')),
  );
  const recovery = useAppStore((s) => s.windowRecovery);
  const update = useAppStore((s) => s.update);
  const [failure, setFailure] = useState<string | null>(null);
  const report = (error: unknown) => setFailure(messageOf(error));
  if (requests.length === 0 && !recovery && update?.status !== 'ready' && !failure) return null;

  return (
    <section aria-label="Notices" className="notices">
      <Alert message={failure} />
      {recovery && (
        <div role="alert" className="notice notice-warning">
          <div className="notice-body">
            <p className="notice-title">
              The window crashed ({recovery.reason}) and was reloaded <RelativeTime iso={recovery.at} />.
            </p>
            <p className="muted">Your servers kept running; nothing was lost. Help › Show logs has the details.</p>
          </div>
          <button
            type="button"
            className="secondary"
            onClick={() => void api.dismissWindowRecovery().catch(report)}
            aria-label="Dismiss: the window crashed"
          >
            Dismiss
          </button>
        </div>
      )}
      {update?.status === 'ready' && (
        <div role="status" className="notice">
          <div className="notice-body">
            <p className="notice-title">Patchbay {update.version} is ready to install.</p>
            {update.installOnQuit && <p className="muted">It will be installed when Patchbay quits.</p>}
          </div>
          <div className="notice-actions">
            <button type="button" onClick={() => void api.installUpdate({ when: 'now' }).catch(report)}>
              Restart and install
            </button>
            {!update.installOnQuit && (
              <button type="button" className="secondary" onClick={() => void api.installUpdate({ when: 'on-quit' }).catch(report)}>
                Install when I quit
              </button>
            )}
          </div>
        </div>
      )}
      {requests.map((request) => (
        <OpenRequestNotice
          key={request.id}
          request={request}
          onDismiss={() => void api.dismissOpenRequest({ id: request.id }).catch(report)}
        />
      ))}
    </section>
  );
}
