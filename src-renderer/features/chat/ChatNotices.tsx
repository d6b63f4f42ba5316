import type { ApiKeyStatus, ChatError } from '../../../src-preload/contract';

/** Shown while no API key is set: what to do, and that the rest of the app works meanwhile. */
export function ApiKeyGuidance({ status, onOpenSettings }: { status: ApiKeyStatus; onOpenSettings(): void }) {
  return (
    <div role="note" aria-label="API key needed" className="warning chat-notice">
      <p>
        <strong>Add an Anthropic API key to chat.</strong> Open Settings and paste it into <em>API key</em>. {status.storage} Servers, tools
        and everything else work without one.
      </p>
      {status.problem && <p>The stored key cannot be used: {status.problem}</p>}
      <button type="button" className="button" onClick={onOpenSettings}>
        Open Settings
      </button>
    </div>
  );
}

/** How the last turn failed, with Retry (the message the user sent is kept). */
export function TurnErrorBanner({
  error,
  onRetry,
  onOpenSettings,
  retrying,
}: {
  error: ChatError;
  onRetry(): void;
  onOpenSettings(): void;
  retrying: boolean;
}) {
  const settingsHelp = error.kind === 'no-api-key' || error.kind === 'auth' || error.kind === 'bad-request';
  return (
    <div role="alert" className="warning chat-notice" data-kind={error.kind}>
      <p>{error.message}</p>
      <div className="actions">
        {error.retryable && (
          <button type="button" className="button" onClick={onRetry} disabled={retrying}>
            Retry
          </button>
        )}
        {settingsHelp && (
          <button type="button" className="button secondary" onClick={onOpenSettings}>
            Open Settings
          </button>
        )}
      </div>
    </div>
  );
}
