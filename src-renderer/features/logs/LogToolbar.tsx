import { useId } from 'react';
import { LOG_LEVELS, type LogLevel, type LogStream } from '@contract';
import type { LogViewFilters } from './log-view-model';
import { Select } from '../../ui/Select';

export interface LogToolbarProps {
  stream: LogStream;
  filters: LogViewFilters;
  following: boolean;
  newWhilePaused: number;
  busy: { copy: boolean; export: boolean };
  onFilters(filters: LogViewFilters): void;
  onPause(): void;
  onResume(): void;
  onCopy(): void;
  onExport(): void;
  /** Absent where there is nothing to clear as one (the "All servers" view). */
  onClear?(): void;
}

/** Filters (level, text, method), follow/pause, copy, export and clear for one stream's list. */
export function LogToolbar({
  stream,
  filters,
  following,
  newWhilePaused,
  busy,
  onFilters,
  onPause,
  onResume,
  onCopy,
  onExport,
  onClear,
}: LogToolbarProps) {
  const id = useId();
  const set = (patch: Partial<LogViewFilters>) => onFilters({ ...filters, ...patch });
  return (
    <div className="log-toolbar" role="toolbar" aria-label="Log view">
      <label htmlFor={`${id}-level`}>Level</label>
      <Select
        id={`${id}-level`}
        value={filters.minLevel}
        onChange={(next) => set({ minLevel: next as LogLevel | '' })}
        options={[
          { value: '', label: 'All levels' },
          ...LOG_LEVELS.map((level) => ({ value: level, label: level === 'emergency' ? 'emergency' : `${level} and above` })),
        ]}
      />
      <label htmlFor={`${id}-text`}>Filter</label>
      <input
        id={`${id}-text`}
        type="search"
        value={filters.text}
        placeholder="Text to find"
        onChange={(e) => set({ text: e.target.value })}
      />
      {stream === 'protocol' && (
        <>
          <label htmlFor={`${id}-method`}>Method</label>
          <input
            id={`${id}-method`}
            type="search"
            value={filters.method}
            placeholder="e.g. tools/"
            onChange={(e) => set({ method: e.target.value })}
          />
        </>
      )}
      <span className="log-toolbar-spacer" />
      {following ? (
        <button type="button" onClick={onPause}>
          Pause
        </button>
      ) : (
        <button type="button" onClick={onResume}>
          {newWhilePaused > 0 ? `Follow (${newWhilePaused.toLocaleString()} new)` : 'Follow'}
        </button>
      )}
      <button type="button" className="secondary" onClick={onCopy} disabled={busy.copy}>
        Copy
      </button>
      <button type="button" className="secondary" onClick={onExport} disabled={busy.export}>
        Export JSONL
      </button>
      {onClear && (
        <button type="button" className="secondary" onClick={onClear}>
          Clear
        </button>
      )}
    </div>
  );
}
