import * as Popover from '@radix-ui/react-popover';
import { formatTokens, type ContextMeasure } from '@contract';
import { useContextMeasure, type MeasureRequest } from './use-context-measure';
import './context-meter.css';

/**
 * Beside the message box: what the next request will carry, in tokens ("≈ 12.4k tokens"). A click
 * opens the breakdown — tools, system prompt, attachments, history — and the tools' tokens by server.
 * Counted by the host with one tokenizer for every model, hence "≈".
 */
export function ContextMeter(request: MeasureRequest) {
  const { measure, failure } = useContextMeasure(request);
  if (!measure) {
    return (
      <span className="context-meter muted" title={failure ?? undefined}>
        {failure ? 'Tokens not counted' : 'Counting tokens…'}
      </span>
    );
  }
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="context-meter"
          title={failure ? `Not counted again: ${failure}` : 'What the next request carries (click for the breakdown)'}
        >
          ≈ {formatTokens(measure.total)} tokens
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="context-meter-popover" side="top" align="end" sideOffset={6} aria-label="Context breakdown">
          <ContextBreakdown measure={measure} />
          <Popover.Arrow className="context-meter-arrow" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function ContextBreakdown({ measure }: { measure: ContextMeasure }) {
  const rows: [string, number][] = [
    [`Tools (${measure.toolCount})`, measure.tools],
    ['System prompt', measure.system],
    ['Attachments', measure.attachments],
    ['History', measure.history],
  ];
  return (
    <>
      <h3>Next request ≈ {formatTokens(measure.total)} tokens</h3>
      <dl className="context-meter-rows">
        {rows.map(([label, tokens]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>≈ {formatTokens(tokens)}</dd>
          </div>
        ))}
      </dl>
      <h4 id="context-meter-servers">Tool tokens by server</h4>
      {measure.servers.length === 0 ? (
        <p className="muted">No tools are offered: no server of this conversation is Ready, or the model takes no tools.</p>
      ) : (
        <ul aria-labelledby="context-meter-servers" className="context-meter-servers">
          {measure.servers.map((server) => (
            <li key={server.serverId}>
              <span className="context-meter-server">{server.serverName}</span>
              <span>
                {server.tools} {server.tools === 1 ? 'tool' : 'tools'}, ≈ {formatTokens(server.tokens)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        Counted with one tokenizer (o200k) for every model, so approximate. The system prompt includes servers’ instructions.
      </p>
    </>
  );
}
