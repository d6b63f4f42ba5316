import type { OpenRequest } from '@contract';

/**
 * Something the operating system asked Patchbay to open that it cannot use (another action, a broken
 * link, a file that is not a bundle), shown with the reason until the user dismisses it. Links and
 * bundles Patchbay can install open the install dialog instead (see features/install/).
 */
export function OpenRequestNotice({ request, onDismiss }: { request: Extract<OpenRequest, { kind: 'rejected' }>; onDismiss(): void }) {
  const title = `Patchbay was asked to open something it cannot use: ${request.reason}`;
  return (
    <div role="status" className="notice notice-warning" data-testid="open-request">
      <div className="notice-body">
        <p className="notice-title">{title}</p>
        <p className="muted">
          What was asked: <code>{request.input}</code>
        </p>
        <p className="muted">Nothing was installed or started.</p>
      </div>
      <button type="button" className="secondary" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
        Dismiss
      </button>
    </div>
  );
}
