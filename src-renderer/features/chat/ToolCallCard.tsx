import { useMemo, useRef, useState } from 'react';
import type { ToolResultBlock, ToolResultPart, ToolRunProgress, ToolUseBlock } from '@contract';
import type { ChatToolCall } from '../../stores/slices/tools-slice';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { AppView } from '../mcp-apps/AppView';
import { callToolResultOf } from '../mcp-apps/app-result';
import { OpenResourceButton } from '../resources/OpenResource';
import { ResourceLinkView } from '../resources/ResourceLinkView';
import { TaskLine } from '../tasks/TaskLine';
import { cardStatus, formatArgs, RESULT_PREVIEW_CHARS, STATUS_LABELS } from './chat-model';
import { Progress } from '../../ui/Progress';
import { Wrench } from 'lucide-react';
import { Icon } from '../../ui/Icon';
import { ContentFlags } from '../../ui/ContentFlags';
import { useIntentTarget } from '../../ui/use-intent-target';
import { ResultText } from '../tools/result/ResultText';

export interface ToolCallCardProps {
  call: ToolUseBlock;
  result?: ToolResultBlock;
  /** The turn the call belongs to still runs (else a call without a result was never run). */
  turnRunning?: boolean;
  /** The conversation the call is in. */
  conversationId?: string;
  /** The call's live record; by default the store's, from the tool-call stream (and a reload's running calls). */
  live?: ChatToolCall;
}

/**
 * A tool call inline in the answer: server and tool, the arguments that ran (marked when the user
 * edited the model's, which stay one click away), status (with progress), and the whole result on demand.
 */
export function ToolCallCard({ call, result, turnRunning = true, conversationId, live: given }: ToolCallCardProps) {
  const server = call.serverName || 'unknown server';
  const stored = useAppStore((s) => s.chatToolCalls[call.id]);
  const live = given ?? stored;
  const { status, progress } = cardStatus(result, live, turnRunning);
  // While it runs: the arguments it runs with, when the user edited the model's (the stored result says so after).
  const ran = result?.editedArgs ?? live?.editedArgs;
  const task = live?.task;
  // A timeline bar's "Show the card" scrolls here and focuses the card.
  const card = useRef<HTMLElement>(null);
  useIntentTarget('focus-tool-card', call.id, card);
  const appResult = useMemo(
    () => (result?.app ? callToolResultOf(result.content, result.isError, result.structuredContent) : undefined),
    [result],
  );
  return (
    <article ref={card} tabIndex={-1} className="tool-card" data-status={status} aria-label={`Tool call ${call.toolName} on ${server}`}>
      <header className="tool-card-head">
        <span className="tool-card-name">
          <Icon icon={Wrench} className="tool-card-icon" />
          <span className="muted">{server} ›</span> <strong>{call.toolName}</strong>
        </span>
        <span className="tool-card-status" role="status">
          {STATUS_LABELS[status]}
          {status === 'running' && '…'}
        </span>
      </header>
      {status === 'running' && progress && <ProgressLine progress={progress} />}
      {task && <TaskLine task={task} />}
      {status === 'running' && live && <CancelCall callId={live.callId} isTask={task !== undefined} />}
      <details className="tool-card-section">
        <summary>
          Arguments
          {ran && <span className="tool-card-edited"> — edited by you</span>}
        </summary>
        <pre>{formatArgs(ran ?? call.input)}</pre>
        {ran && (
          <details className="tool-card-original">
            <summary>The model’s original arguments</summary>
            <pre>{formatArgs(call.input)}</pre>
          </details>
        )}
      </details>
      {result?.flags && result.flags.length > 0 && (
        <ContentFlags
          flags={result.flags}
          what="This result"
          decision={result.flagDecision === 'withheld' ? 'The model did not get it.' : 'The model got it, told to treat it as data.'}
        />
      )}
      {result && (
        <details className="tool-card-section" open={result.isError && result.outcome === 'error'}>
          <summary>{result.isError ? 'Result (error)' : 'Result'}</summary>
          <div className="tool-result">
            {result.content.length === 0 && <p className="muted">(no content)</p>}
            {result.content.map((part, i) =>
              result.assistantOnly?.includes(i) ? (
                // For the model only (`annotations.audience`): sent to it, folded here.
                <details key={i} className="tool-card-audience">
                  <summary className="muted">For the model only</summary>
                  <ResultPart part={part} serverId={call.serverId} />
                </details>
              ) : (
                <div key={i} className="tool-card-part">
                  {result.userOnly?.includes(i) && <p className="muted tool-card-audience-note">For you only: not sent to the model</p>}
                  <ResultPart part={part} serverId={call.serverId} />
                </div>
              ),
            )}
          </div>
          {result.modelLimitChars !== undefined && textLength(result.content) > result.modelLimitChars && (
            <p className="muted">
              The model got the first {result.modelLimitChars.toLocaleString()} characters of this result; it is shown here whole.
            </p>
          )}
        </details>
      )}
      {result?.app && appResult && (
        <AppView
          serverId={call.serverId}
          serverName={server}
          tool={call.toolName}
          toolInput={ran ?? call.input}
          toolResult={appResult}
          {...(conversationId ? { conversationId } : {})}
        />
      )}
    </article>
  );
}

/** Cancels this one call (a task gets `tasks/cancel`); the rest of the turn goes on. */
function CancelCall({ callId, isTask }: { callId: string; isTask: boolean }) {
  const api = useAppStore((s) => s.api);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.cancelToolCall({ callId });
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  return (
    <div className="tool-card-cancel">
      <button
        type="button"
        className="danger"
        disabled={busy}
        title={isTask ? 'Cancels the task on the server (tasks/cancel)' : 'Cancels this call'}
        onClick={() => void cancel()}
      >
        {busy ? 'Cancelling…' : 'Cancel'}
      </button>
      {error && <span className="field-error"> {error}</span>}
    </div>
  );
}

function textLength(parts: ToolResultPart[]): number {
  return parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : p.type === 'resource' ? (p.text?.length ?? 0) : 0), 0);
}

function ProgressLine({ progress }: { progress: ToolRunProgress }) {
  return (
    <div className="tool-card-progress">
      {progress.total ? <Progress value={progress.progress} max={progress.total} label="Progress" /> : null}
      <span className="muted">
        {progress.message ?? (progress.total ? `${progress.progress} of ${progress.total}` : `${progress.progress}`)}
      </span>
    </div>
  );
}

/**
 * A result part; a very long text shows its beginning until the user asks for all of it. Resource
 * links and embedded resources open through the server that returned them.
 */
function ResultPart({ part, serverId }: { part: ToolResultPart; serverId: string }) {
  switch (part.type) {
    case 'image':
      return <img className="tool-result-image" alt="Image returned by the tool" src={`data:${part.mediaType};base64,${part.data}`} />;
    case 'resource_link':
      return <ResourceLinkView link={part} open={serverId && <OpenResourceButton serverId={serverId} uri={part.uri} name={part.name} />} />;
    case 'resource':
      return (
        <div className="result-resource">
          <span className="result-kind">Embedded resource</span> <code>{part.uri}</code>
          {part.mimeType && <span className="muted"> · {part.mimeType}</span>}{' '}
          {serverId && <OpenResourceButton serverId={serverId} uri={part.uri} name={part.uri} />}
          {part.text !== undefined && <LongText text={part.text} />}
          {part.blobBytes !== undefined && <p className="muted">Binary content, {part.blobBytes.toLocaleString()} bytes</p>}
        </div>
      );
    case 'text':
      return <LongText text={part.text} />;
  }
}

function LongText({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const long = text.length > RESULT_PREVIEW_CHARS;
  return (
    <>
      <ResultText text={long && !all ? text.slice(0, RESULT_PREVIEW_CHARS) : text} />
      {long && !all && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show all {text.length.toLocaleString()} characters
        </button>
      )}
    </>
  );
}
