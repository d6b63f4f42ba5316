import { useEffect, useState } from 'react';
import { formatBytes, type TimelineSpan, type TimelineTarget, type TurnTimeline } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import './timeline.css';

const KIND_NAMES: Record<TimelineSpan['kind'], string> = {
  turn: 'Turn',
  model: 'Model request',
  search: 'Tool search',
  tool: 'Tool call',
  consent: 'Consent wait',
  sampling: 'Sampling',
  elicitation: 'Elicitation',
  request: 'Request',
};

const ms = (value: number | undefined) =>
  value === undefined ? 'running' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;

/** Every number of a bar, in words: its accessible name and its tooltip. */
export function describeSpan(span: TimelineSpan): string {
  // A search's label already says what it is ("Tool search “sum”…"): not prefixed twice.
  const head = span.kind === 'search' ? span.label : `${KIND_NAMES[span.kind]}: ${span.label}`;
  const parts = [head, `starts at ${ms(span.startMs)}`, `takes ${ms(span.durationMs)}`];
  if (span.model) parts.push(`model ${span.model}`);
  if (span.inputTokens !== undefined) parts.push(`${span.inputTokens} tokens in, ${span.outputTokens ?? 0} out`);
  if (span.firstTokenMs !== undefined) parts.push(`first text after ${ms(span.firstTokenMs)}`);
  if (span.bytesOut !== undefined) parts.push(`sent ${formatBytes(span.bytesOut)}`);
  if (span.bytesIn !== undefined) parts.push(`received ${formatBytes(span.bytesIn)}`);
  if (span.status) parts.push(span.status === 'ok' ? 'succeeded' : span.status.replaceAll('_', ' '));
  return parts.join(', ');
}

/** Depth of each bar under the turn (sampling nests under the call that caused it). */
function depths(spans: TimelineSpan[]): Map<string, number> {
  const byId = new Map(spans.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  const of = (span: TimelineSpan): number => {
    const known = depth.get(span.id);
    if (known !== undefined) return known;
    const parent = span.parentId ? byId.get(span.parentId) : undefined;
    const value = parent ? of(parent) + 1 : 0;
    depth.set(span.id, value);
    return value;
  };
  for (const span of spans) of(span);
  return depth;
}

/**
 * The turn as a waterfall: each bar placed by its start and length on the turn's scale, indented
 * under what caused it, focusable, and named with all its numbers (a screen reader reads them; the
 * pointer sees them as a tooltip).
 */
export function TimelineDialog({
  open,
  onOpenChange,
  target,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  target: TimelineTarget;
}) {
  const api = useAppStore((s) => s.api);
  const [timeline, setTimeline] = useState<TurnTimeline | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TimelineSpan | null>(null);
  useEffect(() => {
    if (!open) return;
    // Asked again at each opening: a turn still running has more bars the next time.
    api.getTurnTimeline(target).then(
      (found) => {
        setError(null);
        setTimeline(found);
      },
      (e: unknown) => setError(messageOf(e)),
    );
    // The target is the same bar's address for the dialog's life; its identity may change per render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, open, JSON.stringify(target)]);

  const spans = timeline?.spans ?? [];
  const total = Math.max(1, ...spans.map((s) => s.startMs + (s.durationMs ?? 0)));
  const depth = depths(spans);
  // Each bar's words once (its name and its tooltip): a 200-call turn paints 200 of them.
  const described = new Map(spans.map((s) => [s.id, describeSpan(s)]));
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Timeline" className="timeline-dialog">
      {error && <p role="alert">Could not load the timeline: {error}</p>}
      {timeline === undefined && !error && <p className="muted">Loading…</p>}
      {timeline === null && (
        <p className="muted">This turn’s timeline is no longer kept (timelines are kept in memory for the last 100 turns).</p>
      )}
      {timeline && (
        <>
          <p className="hint">
            {ms(total)} in all{timeline.traceId && <> · trace {timeline.traceId}</>}
          </p>
          <ol className="timeline" aria-label="Turn timeline">
            {spans.map((span) => (
              <li
                key={span.id}
                className="timeline-row"
                data-kind={span.kind}
                style={{ paddingInlineStart: `${(depth.get(span.id) ?? 0) * 12}px` }}
              >
                <span className="timeline-label">{span.label}</span>
                <span className="timeline-track">
                  <button
                    type="button"
                    className="timeline-bar"
                    data-kind={span.kind}
                    data-status={span.status}
                    aria-label={described.get(span.id)}
                    title={described.get(span.id)}
                    aria-pressed={selected?.id === span.id}
                    style={{
                      insetInlineStart: `${(span.startMs / total) * 100}%`,
                      width: `max(3px, ${(((span.durationMs ?? total - span.startMs) / total) * 100).toFixed(3)}%)`,
                    }}
                    onClick={() => setSelected(span)}
                  />
                </span>
                <span className="timeline-time">{ms(span.durationMs)}</span>
              </li>
            ))}
          </ol>
          {selected && (
            <div className="timeline-detail">
              <p role="status">{describeSpan(selected)}</p>
              <SpanLinks span={selected} conversationId={timeline.conversationId} onLeave={() => onOpenChange(false)} />
            </div>
          )}
        </>
      )}
    </Modal>
  );
}

/** The log filter that finds one request's lines (its request and its answer) in a Protocol log. */
const requestFilter = (requestId: string) => `tools/call #${requestId} (`;

/**
 * Where a bar's work is recorded: its card in the conversation, its audit entry (Settings › Tool
 * consent), its request's lines in the server's Protocol log. Each closes the dialog and goes there.
 */
function SpanLinks({ span, conversationId, onLeave }: { span: TimelineSpan; conversationId: string; onLeave(): void }) {
  const request = useAppStore((s) => s.request);
  const go = (...args: Parameters<typeof request>) => {
    onLeave();
    request(...args);
  };
  const card = span.toolUseId && conversationId ? span.toolUseId : undefined;
  const audited = span.callId && (span.kind === 'tool' || span.kind === 'consent') ? span.callId : undefined;
  const logged = span.serverId && span.requestId ? { serverId: span.serverId, requestId: span.requestId } : undefined;
  if (!card && !audited && !logged) return null;
  return (
    <div className="timeline-links" role="group" aria-label="Go to">
      {card && (
        <button
          type="button"
          className="quiet"
          onClick={() => go('focus-tool-card', { route: { page: 'chat', conversationId }, target: card })}
        >
          {span.kind === 'search' ? 'Show the search' : 'Show the card'}
        </button>
      )}
      {audited && (
        <button type="button" className="quiet" onClick={() => go('focus-audit-entry', { target: audited })}>
          Audit entry
        </button>
      )}
      {logged && (
        <button
          type="button"
          className="quiet"
          onClick={() =>
            go('filter-protocol-log', {
              route: { page: 'logs', serverId: logged.serverId, stream: 'protocol' },
              target: requestFilter(logged.requestId),
            })
          }
        >
          Protocol log
        </button>
      )}
    </div>
  );
}
