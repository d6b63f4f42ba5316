import * as Popover from '@radix-ui/react-popover';
import { formatTokens, SKILL_TOOL_NAME, type ContextMeasure } from '@contract';
import { SkillLoadCosts } from '../skills/SkillLoadCosts';
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
    [measure.heldBack ? `Tools sent (${measure.toolCount}, with the search tool)` : `Tools (${measure.toolCount})`, measure.tools],
    ...(measure.skills ? ([[`Skills (${measure.skills.offered} offered)`, measure.skills.tokens]] as [string, number][]) : []),
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
      {measure.heldBack && (
        <p className="context-meter-held">
          Tool search keeps back {measure.heldBack.tools} {measure.heldBack.tools === 1 ? 'tool' : 'tools'} of{' '}
          {measure.heldBack.servers.length} {measure.heldBack.servers.length === 1 ? 'server' : 'servers'} (≈{' '}
          {formatTokens(measure.heldBack.tokens)} tokens not sent): the model finds them with a search.
        </p>
      )}
      {measure.skills && <SkillLoadCosts />}
      <h4 id="context-meter-servers">Tool tokens by server</h4>
      <ServerRows measure={measure} />
      <p className="hint">
        Counted with one tokenizer (o200k) for every model, so approximate. The system prompt includes servers’ instructions.
      </p>
    </>
  );
}

/** Each server's tools and instructions in the request and, under tool search, the tools kept back (from the same request plan). */
function ServerRows({ measure }: { measure: ContextMeasure }) {
  const held = new Map((measure.heldBack?.servers ?? []).map((s) => [s.serverId, s]));
  const ids = [...new Set([...measure.servers.map((s) => s.serverId), ...held.keys()])];
  if (ids.length === 0) {
    // Only skills sent: the one tool is the host's `load_skill` (counted on the Skills line), not a server's.
    if (measure.skills) {
      const { offered } = measure.skills;
      return (
        <p className="muted">
          No server’s tools are sent; only the {SKILL_TOOL_NAME} tool, which offers {offered} {offered === 1 ? 'skill' : 'skills'} (counted
          under Skills above).
        </p>
      );
    }
    return <p className="muted">No tools are offered: no server of this conversation is Ready, or the model takes no tools.</p>;
  }
  const tools = (n: number) => `${n} ${n === 1 ? 'tool' : 'tools'}`;
  return (
    <ul aria-labelledby="context-meter-servers" className="context-meter-servers">
      {ids.map((id) => {
        const sent = measure.servers.find((s) => s.serverId === id);
        const back = held.get(id);
        const name = sent?.serverName ?? back?.serverName ?? id;
        return (
          <li key={id}>
            <span className="context-meter-server">{name}</span>
            <span>
              {sent ? `${tools(sent.tools)}, ≈ ${formatTokens(sent.tokens)}` : back ? 'none sent' : ''}
              {sent?.instructionTokens ? `, instructions ≈ ${formatTokens(sent.instructionTokens)}` : ''}
              {back && <span className="muted"> · {tools(back.tools)} kept back by search</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
