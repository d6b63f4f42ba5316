import { formatBytes, type ToolCallOutcome } from '@contract';
import { formatElapsed } from './format';
import { OpenResourceButton } from '../../resources/OpenResource';
import { MoreText, ResultBlock, type LoadPart } from './ResultBlocks';

export interface ToolResultViewProps {
  outcome: ToolCallOutcome;
  /** Reads more of a cut piece of this call's result. */
  load: LoadPart;
}

const HEADINGS: Record<ToolCallOutcome['status'], string> = {
  ok: 'Result',
  tool_error: 'The tool reported an error',
  protocol_error: 'The call failed',
  cancelled: 'Cancelled',
  denied: 'Not run',
};

/**
 * A finished call, for people: which tool on which server, how it ended, and what it returned. A
 * tool error (the tool ran and said it failed) looks different from a failed call (timeout, crash,
 * invalid params): the first shows the tool's own words, the second says what went wrong with the call.
 */
export function ToolResultView({ outcome, load }: ToolResultViewProps) {
  const source = `${outcome.tool} on ${outcome.serverName}`;
  const failed = outcome.status === 'protocol_error' || outcome.status === 'denied';
  return (
    <section className="tool-result" data-status={outcome.status} aria-label={`${HEADINGS[outcome.status]}: ${source}`}>
      <header className="tool-result-head">
        <strong>{HEADINGS[outcome.status]}</strong> <span className="muted">— {source}</span>
        <span className="muted tool-result-meta">
          {formatElapsed(outcome.durationMs)}
          {outcome.resultBytes > 0 && ` · ${formatBytes(outcome.resultBytes)}`}
        </span>
      </header>
      {outcome.error && (
        <p role={failed ? 'alert' : undefined} className={failed ? 'tool-call-error' : 'muted'}>
          {outcome.error.message}
        </p>
      )}
      {outcome.blocks.map((block, index) => (
        <ResultBlock
          key={index}
          block={block}
          index={index}
          load={load}
          source={source}
          renderOpen={(uri, name) => <OpenResourceButton serverId={outcome.serverId} uri={uri} name={name} />}
        />
      ))}
      {outcome.status === 'ok' && outcome.blocks.length === 0 && !outcome.structured && <p className="muted">The tool returned nothing.</p>}
      {outcome.structured && (
        <details className="result-structured">
          <summary>
            Structured content
            {outcome.structured.validated && <span className="result-valid"> · matches the tool’s output schema</span>}
          </summary>
          <MoreText
            text={outcome.structured.json}
            truncated={outcome.structured.truncated}
            part="structured"
            load={load}
            className="result-json"
          />
        </details>
      )}
    </section>
  );
}
