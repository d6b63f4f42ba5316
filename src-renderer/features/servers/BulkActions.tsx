import { useRef, useState } from 'react';
import type { ServerView } from '@contract';
import { canStart } from './server-status';

export interface BulkActionsProps {
  /** The rows on screen (after the filters): "Select all" ticks these, and only these are acted on. */
  servers: readonly ServerView[];
  selected: ReadonlySet<string>;
  onSelect(next: ReadonlySet<string>): void;
  start(id: string): Promise<unknown>;
  stop(id: string): Promise<unknown>;
}

/** A set with `id` added or taken out. */
export function toggled(set: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * Start or Stop several servers at once: a "Select all shown" tick box and, once rows are ticked, the
 * two actions with how many each concerns. Failures are counted and named (the row of each says why).
 */
export function BulkActions({ servers, selected, onSelect, start, stop }: BulkActionsProps) {
  const [note, setNote] = useState('');
  const run = useRef(0);
  const ticked = servers.filter((s) => selected.has(s.config.id));
  const startable = ticked.filter((s) => canStart(s.runtime.status));
  const stoppable = ticked.filter((s) => s.runtime.status === 'ready' || s.runtime.status === 'starting');
  const all = ticked.length > 0 && ticked.length === servers.length;
  const act = async (verb: 'Started' | 'Stopped', targets: readonly ServerView[], call: (id: string) => Promise<unknown>) => {
    const mine = ++run.current;
    setNote(`${verb === 'Started' ? 'Starting' : 'Stopping'} ${targets.length}…`);
    const results = await Promise.allSettled(targets.map((s) => call(s.config.id)));
    if (mine !== run.current) return;
    const failed = targets.filter((_, i) => results[i]?.status === 'rejected').map((s) => s.config.name);
    setNote(
      failed.length === 0
        ? `${verb} ${targets.length} ${targets.length === 1 ? 'server' : 'servers'}.`
        : `${verb} ${targets.length - failed.length} of ${targets.length}; could not for ${failed.join(', ')}.`,
    );
  };
  return (
    <div className="server-bulk" role="toolbar" aria-label="Selected servers">
      <label className="server-bulk-all">
        <input
          type="checkbox"
          checked={all}
          ref={(el) => {
            if (el) el.indeterminate = ticked.length > 0 && !all;
          }}
          onChange={(e) => onSelect(new Set(e.target.checked ? servers.map((s) => s.config.id) : []))}
        />
        Select all shown
      </label>
      {ticked.length > 0 && (
        <>
          <span className="muted">{ticked.length} selected</span>
          <button
            type="button"
            className="secondary"
            disabled={startable.length === 0}
            onClick={() => void act('Started', startable, start)}
          >
            Start selected ({startable.length})
          </button>
          <button
            type="button"
            className="secondary"
            disabled={stoppable.length === 0}
            onClick={() => void act('Stopped', stoppable, stop)}
          >
            Stop selected ({stoppable.length})
          </button>
          <button type="button" className="link" onClick={() => onSelect(new Set())}>
            Clear selection
          </button>
        </>
      )}
      <span role="status" className="muted">
        {note}
      </span>
    </div>
  );
}
