import { useEffect, useMemo, useState } from 'react';
import { protocolLinesFilter, type TimelineSpan, type TimelineTarget, type TurnTimeline } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { describeSpan, ms, timelineRows } from './timeline-rows';
import { TimelineWaterfall } from './TimelineWaterfall';
import { Alert } from '../../ui/Alert';
import './timeline.css';

/**
 * The turn as a waterfall (`TimelineWaterfall`): each bar placed by its start and length on the
 * turn's scale, indented under what caused it, reachable by keyboard and named with all its numbers;
 * the selected bar's numbers are said again beneath it (a status line), with where its work is recorded.
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
  // The opening whose answer is awaited (the rows shown meanwhile are the last answer's, said busy).
  const [asked, setAsked] = useState(0);
  const [answered, setAnswered] = useState(0);
  const [opened, setOpened] = useState(false);
  if (open !== opened) {
    setOpened(open);
    if (open) setAsked((n) => n + 1);
  }
  useEffect(() => {
    if (asked === 0) return;
    // Asked again at each opening: a turn still running has more bars the next time.
    api.getTurnTimeline(target).then(
      (found) => {
        setError(null);
        setTimeline(found);
        setAnswered(asked);
      },
      (e: unknown) => {
        setError(messageOf(e));
        setAnswered(asked);
      },
    );
    // The target is the same bar's address for the dialog's life; its identity may change per render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, asked, JSON.stringify(target)]);

  // Each bar's words and geometry once per answer: re-renders (focus, selection) reuse them.
  const laid = useMemo(() => (timeline ? timelineRows(timeline) : undefined), [timeline]);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Timeline" className="timeline-dialog">
      <Alert message={error} prefix="Could not load the timeline:" tone="plain" />
      {timeline === undefined && !error && <p className="muted">Loading…</p>}
      {timeline === null && (
        <p className="muted">This turn’s timeline is no longer kept (timelines are kept in memory for the last 100 turns).</p>
      )}
      {timeline && laid && (
        <>
          <p className="hint">
            {ms(laid.total)} in all · {laid.rows.length} bars{timeline.traceId && <> · trace {timeline.traceId}</>}
          </p>
          <TimelineWaterfall rows={laid.rows} selectedId={selected?.id} busy={answered < asked} onSelect={setSelected} />
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
  const filter = protocolLinesFilter(span);
  const logged = filter && span.serverId ? { serverId: span.serverId, filter } : undefined;
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
              target: logged.filter,
            })
          }
        >
          Protocol log
        </button>
      )}
    </div>
  );
}
