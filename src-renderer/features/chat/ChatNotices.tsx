import type { ApiKeyStatus, ChatError } from '@contract';
import { RotateCcw } from 'lucide-react';
import { Icon } from '../../ui/Icon';

/**
 * Shown while the conversation's provider needs a key and has none: what to do, and that the rest of
 * the app works meanwhile; one prompt a screen (inside Get started while it shows, else above the
 * composer). `providerName` for a provider other than the Anthropic one of Settings' quick field: its
 * key is set in Settings › Providers; the Anthropic key's button focuses its field.
 */
export function ApiKeyGuidance({
  status,
  providerName,
  onSetKey,
  onOpenProviders,
}: {
  status: ApiKeyStatus;
  providerName?: string | undefined;
  onSetKey(): void;
  onOpenProviders(): void;
}) {
  return (
    <div role="note" aria-label="API key needed" className="warning chat-notice">
      {providerName ? (
        <p>
          <strong>Add an API key for {providerName} to chat with its models.</strong> Open Settings › Providers and edit {providerName}, or
          pick another model in the header. {status.storage}
        </p>
      ) : (
        <p>
          <strong>Add an Anthropic API key to chat.</strong> Paste it into <em>API key</em> in Settings — or pick a local model in the
          header. {status.storage} Servers, tools and everything else work without one.
        </p>
      )}
      {status.problem && <p>The stored key cannot be used: {status.problem}</p>}
      {providerName ? (
        <button type="button" className="button" onClick={onOpenProviders}>
          Open Settings
        </button>
      ) : (
        <button type="button" className="button" onClick={onSetKey}>
          Set the API key
        </button>
      )}
    </div>
  );
}

/** How the last turn failed, with Retry (the message the user sent is kept). */
export function TurnErrorBanner({
  error,
  onRetry,
  onContinueWithoutTools,
  onTurnOnToolSearch,
  onChooseToolSet,
  onOpenSettings,
  retrying,
}: {
  error: ChatError;
  onRetry(): void;
  /** For a model that refused tools: retry the turn offering none (remembered for this model). */
  onContinueWithoutTools(): void;
  /** For more tools than the provider takes: turn tool search on (Automatic) and retry. */
  onTurnOnToolSearch(): void;
  /** For more tools than the provider takes: pick a tool set with fewer (the header's picker, or Settings › Tool sets). */
  onChooseToolSet(): void;
  onOpenSettings(): void;
  retrying: boolean;
}) {
  const settingsHelp =
    error.kind === 'no-api-key' || error.kind === 'auth' || error.kind === 'bad-request' || error.kind === 'answer-too-long';
  return (
    <div role="alert" className="warning chat-notice" data-kind={error.kind}>
      <p>{error.message}</p>
      <div className="actions">
        {error.kind === 'tools-unsupported' && (
          <button type="button" className="button" onClick={onContinueWithoutTools} disabled={retrying}>
            Continue without tools
          </button>
        )}
        {error.kind === 'too-many-tools' && (
          <>
            <button type="button" className="button" onClick={onTurnOnToolSearch} disabled={retrying}>
              Turn on tool search
            </button>
            <button type="button" className="button secondary" onClick={onChooseToolSet}>
              Choose a tool set
            </button>
          </>
        )}
        {error.retryable && error.kind !== 'tools-unsupported' && (
          <button type="button" className="button" onClick={onRetry} disabled={retrying}>
            <Icon icon={RotateCcw} />
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
