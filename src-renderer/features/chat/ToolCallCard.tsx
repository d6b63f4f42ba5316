import { useState } from 'react';
import type { ToolProgress, ToolResultPart } from '../../../src-preload/contract';
import { formatArgs, RESULT_PREVIEW_CHARS, STATUS_LABELS, type CardStatus, type ToolResultBlock, type ToolUseBlock } from './chat-model';

export interface ToolCallCardProps {
  call: ToolUseBlock;
  result?: ToolResultBlock;
  status: CardStatus;
  progress?: ToolProgress;
  /** While it runs: the arguments it runs with, when the user edited the model's (the stored result says so after). */
  editedArgs?: Record<string, unknown>;
}

/**
 * A tool call inline in the answer: server and tool, the arguments that ran (marked when the user
 * edited the model's, which stay one click away), status (with progress), and the whole result on demand.
 */
export function ToolCallCard({ call, result, status, progress, editedArgs }: ToolCallCardProps) {
  const server = call.serverName || 'unknown server';
  const ran = result?.editedArgs ?? editedArgs;
  return (
    <article className="tool-card" data-status={status} aria-label={`Tool call ${call.toolName} on ${server}`}>
      <header className="tool-card-head">
        <span className="tool-card-name">
          <span className="muted">{server} ›</span> <strong>{call.toolName}</strong>
        </span>
        <span className="tool-card-status" role="status">
          {STATUS_LABELS[status]}
          {status === 'running' && '…'}
        </span>
      </header>
      {status === 'running' && progress && <ProgressLine progress={progress} />}
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
      {result && (
        <details className="tool-card-section" open={result.isError && result.outcome === 'error'}>
          <summary>{result.isError ? 'Result (error)' : 'Result'}</summary>
          <div className="tool-result">
            {result.content.length === 0 && <p className="muted">(no content)</p>}
            {result.content.map((part, i) => (
              <ResultPart key={i} part={part} />
            ))}
          </div>
          {result.modelLimitChars !== undefined && textLength(result.content) > result.modelLimitChars && (
            <p className="muted">
              The model got the first {result.modelLimitChars.toLocaleString()} characters of this result; it is shown here whole.
            </p>
          )}
        </details>
      )}
    </article>
  );
}

function textLength(parts: ToolResultPart[]): number {
  return parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
}

function ProgressLine({ progress }: { progress: ToolProgress }) {
  return (
    <div className="tool-card-progress">
      {progress.total ? <progress value={progress.progress} max={progress.total} aria-label="Progress" /> : null}
      <span className="muted">
        {progress.message ?? (progress.total ? `${progress.progress} of ${progress.total}` : `${progress.progress}`)}
      </span>
    </div>
  );
}

/** A result part; a very long text shows its beginning until the user asks for all of it. */
function ResultPart({ part }: { part: ToolResultPart }) {
  const [all, setAll] = useState(false);
  if (part.type === 'image')
    return <img className="tool-result-image" alt="Image returned by the tool" src={`data:${part.mediaType};base64,${part.data}`} />;
  const long = part.text.length > RESULT_PREVIEW_CHARS;
  return (
    <>
      <pre>{long && !all ? part.text.slice(0, RESULT_PREVIEW_CHARS) : part.text}</pre>
      {long && !all && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show all {part.text.length.toLocaleString()} characters
        </button>
      )}
    </>
  );
}
