import { useId } from 'react';
import type { ServerView } from '@contract';
import { inStatusFilter, STATUS_FILTER_LABELS, STATUS_FILTERS, type StatusFilter } from './server-status';
import { Select } from '../../ui/Select';

export interface ServerListFiltersProps {
  servers: readonly ServerView[];
  search: string;
  onSearch(text: string): void;
  status: StatusFilter;
  onStatus(status: StatusFilter): void;
  /** How many servers pass both filters. */
  shown: number;
}

/** "Search servers" (name, command, URL) and a status filter with how many servers each status has. */
export function ServerListFilters({ servers, search, onSearch, status, onStatus, shown }: ServerListFiltersProps) {
  const id = useId();
  const narrowed = search.trim() !== '' || status !== 'all';
  return (
    <div className="server-filters" role="search" aria-label="Filter servers">
      <input
        type="search"
        aria-label="Search servers"
        placeholder="Search servers"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
      />
      <label htmlFor={`${id}-status`}>Status</label>
      <Select
        id={`${id}-status`}
        value={status}
        onChange={(next) => onStatus(next as StatusFilter)}
        options={STATUS_FILTERS.map((filter) => ({
          value: filter,
          label: `${STATUS_FILTER_LABELS[filter]} (${servers.filter((s) => inStatusFilter(s.runtime.status, filter)).length})`,
        }))}
      />
      <span role="status" className="muted">
        {narrowed ? `${shown} of ${servers.length} servers` : `${servers.length} ${servers.length === 1 ? 'server' : 'servers'}`}
      </span>
    </div>
  );
}
