import type { McpInstallLink, OpenRequest } from '../../../src-preload/contract';

/** How a link's server would run or be reached, as one line (what the user is being asked to trust). */
export function describeLinkServer(server: McpInstallLink): string {
  if (server.command !== undefined)
    return [server.command, ...(server.args ?? [])].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(' ');
  return `${server.url ?? ''}${server.type === 'sse' ? ' (SSE)' : ''}`;
}

/** What was asked, in one sentence. */
function headline(request: OpenRequest): string {
  switch (request.kind) {
    case 'install-bundle':
      return `Patchbay was asked to install a bundle: ${request.path}`;
    case 'install-link':
      return `Patchbay was asked to install the server “${request.server.name}” from a link`;
    case 'rejected':
      return `Patchbay was asked to open something it cannot use: ${request.reason}`;
  }
}

/**
 * One request the operating system handed over (a `.mcpb` file, a `patchbay://` link), shown for the
 * user to read and dismiss. Nothing was installed or started; installing from here comes later.
 */
export function OpenRequestNotice({ request, onDismiss }: { request: OpenRequest; onDismiss(): void }) {
  const title = headline(request);
  const env = request.kind === 'install-link' ? Object.keys(request.server.env ?? {}) : [];
  return (
    <div role="status" className={`notice${request.kind === 'rejected' ? ' notice-warning' : ''}`} data-testid="open-request">
      <div className="notice-body">
        <p className="notice-title">{title}</p>
        {request.kind === 'install-link' && (
          <p className="muted">
            It would run <code>{describeLinkServer(request.server)}</code>
            {env.length > 0 && <> with {env.join(', ')} set</>}.
          </p>
        )}
        {request.kind === 'rejected' && (
          <p className="muted">
            What was asked: <code>{request.input}</code>
          </p>
        )}
        <p className="muted">Nothing was installed or started.</p>
      </div>
      <button type="button" className="secondary" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
        Dismiss
      </button>
    </div>
  );
}
