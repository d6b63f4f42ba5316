import { useEffect, useRef, useState } from 'react';
import type { OpenRequest } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { useInstallFlow } from './use-install-flow';

type Installable = Extract<OpenRequest, { kind: 'install-link' | 'install-bundle' }>;

/**
 * Installs that start outside the window: a `patchbay://install?…` link or a `.mcpb` file the
 * operating system handed over (oldest first, one at a time: each gets the install dialog, and
 * Cancel dismisses it), and a bundle dropped onto the window. Nothing is installed or started
 * before the user confirms with Install.
 */
export function InstallFromOutside() {
  const api = useAppStore((s) => s.api);
  const next = useAppStore((s) => s.openRequests.find((request): request is Installable => request.kind !== 'rejected'));
  const handling = useRef<string | null>(null);
  // Requests already shown: one waits here until the host confirms it dismissed it.
  const shown = useRef(new Set<string>());
  const [failure, setFailure] = useState<{ request: Installable; message: string } | null>(null);
  const flow = useInstallFlow(api, {
    onDone: () => {
      const id = handling.current;
      handling.current = null;
      // Cancelled (or installed: the host dismissed it already, and this is a no-op).
      if (id) void api.dismissOpenRequest({ id }).catch(() => undefined);
    },
  });

  const { showPlan, openBundleFile, open } = flow;
  useEffect(() => {
    if (!next || handling.current || open || failure || shown.current.has(next.id)) return;
    handling.current = next.id;
    shown.current.add(next.id);
    const planned =
      next.kind === 'install-link'
        ? api.planInstall({ source: { kind: 'link', link: next.link } })
        : api.openBundle({ openRequestId: next.id });
    planned.then(
      (plan) => showPlan(plan, next.id),
      (error: unknown) => {
        handling.current = null;
        setFailure({ request: next, message: messageOf(error) });
      },
    );
  }, [api, next, open, showPlan, failure]);

  // A bundle dropped anywhere on the window opens its install dialog.
  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      const file = event.dataTransfer?.files[0];
      if (file) void openBundleFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [openBundleFile]);

  const what = (request: Installable) => (request.kind === 'install-link' ? `the link for “${request.server.name}”` : request.path);
  return (
    <>
      {(flow.busy || flow.error || failure) && (
        <section aria-label="Install" className="notices">
          {flow.busy && (
            <p role="status" className="notice">
              {flow.busy}
            </p>
          )}
          {flow.error && (
            <div role="alert" className="notice notice-warning">
              <p className="notice-body">{flow.error}</p>
              <button type="button" className="secondary" onClick={flow.clearError}>
                Dismiss
              </button>
            </div>
          )}
          {failure && (
            <div role="alert" className="notice notice-warning">
              <p className="notice-body">
                Could not open {what(failure.request)}: {failure.message}
              </p>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  void api.dismissOpenRequest({ id: failure.request.id }).catch(() => undefined);
                  setFailure(null);
                }}
              >
                Dismiss
              </button>
            </div>
          )}
        </section>
      )}
      {flow.dialog}
    </>
  );
}
