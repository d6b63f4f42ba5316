import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { startTransition, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Icon } from '../../ui/Icon';
import { toolListRows, type ToolListGroup, type ToolListItem, type ToolListRow } from './tool-list-rows';
import './tool-list.css';

/** Every row is one line (switch, name, a hint), so the list can be virtualised with a fixed height. */
export const TOOL_ROW_HEIGHT = 32;

/** What the rows are, in the words the list uses (search box, counts, list names). */
export interface ListNoun {
  one: string;
  many: string;
  /** Capitalised plural, for `Search <Many>`-style names and `<Many> of <group>` lists. */
  Many: string;
}
const TOOLS: ListNoun = { one: 'tool', many: 'tools', Many: 'Tools' };

export interface ToolListProps<T extends ToolListItem> {
  /** Servers in the order shown; a server without tools still gets its heading (its `groupControl`). */
  groups: readonly ToolListGroup[];
  tools: readonly T[];
  /** Headings per server, with folding (the Tools tab lists one server: none). */
  grouped?: boolean;
  /** The control before a tool's name: the switch that decides (named after the tool). */
  control(tool: T): ReactNode;
  /** Words after the name (the policy, "running"). */
  after?(tool: T): ReactNode;
  /** A control in a server's heading (the picker's server switch, the set's "All tools of"). */
  groupControl?(group: ToolListGroup): ReactNode;
  /** Words in a server's heading after its name and count. */
  groupNote?(group: ToolListGroup): ReactNode;
  /** The name is a button opening the tool (the Tools tab); else plain words. */
  onOpen?(tool: T): void;
  /** The open row: its `id`, else its name. */
  selected?: string | null;
  /** Height of the scrolling list in pixels. */
  height?: number;
  /** jsdom has no layout: tests give the viewport size. */
  initialRect?: Rect;
  /** What the rows are (default tools; the Skills tab and Settings › Skills list skills the same way). */
  noun?: ListNoun;
}

/**
 * One tool list for the chat's tool picker, Settings › Tool sets and a server's Tools tab: a
 * `Search tools` box (name and description), the tools grouped by server under headings that fold,
 * arrow keys to move between rows, and only the rows on screen in the page (2,000 tools stay quick).
 * Each group's rows sit in a list named "Tools of <server>", as screen readers and tests find them.
 */
export function ToolList<T extends ToolListItem>({
  groups,
  tools,
  grouped = true,
  control,
  after,
  groupControl,
  groupNote,
  onOpen,
  selected,
  height = 420,
  initialRect,
  noun = TOOLS,
}: ToolListProps<T>) {
  // The search the list shows. The box keeps what is typed itself (`SearchBox`): a keystroke renders
  // the box at once and the list once, in a transition (not the list twice: urgent, then deferred).
  const [search, setSearch] = useState('');
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const scrollRef = useRef<HTMLDivElement>(null);
  const countId = useId();
  const rows = useMemo(() => toolListRows(groups, tools, search, folded, grouped), [groups, tools, search, folded, grouped]);
  const matching = rows.filter((r) => r.kind === 'tool').length;
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook returns functions React Compiler cannot memoize; nothing here is compiled.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TOOL_ROW_HEIGHT,
    overscan: 10,
    initialRect: initialRect ?? { width: 480, height },
  });
  const items = virtualizer.getVirtualItems();
  // For the benchmark: mark each paint of a changed list.
  useEffect(() => {
    const frame = requestAnimationFrame(() => performance.mark('patchbay:tool-list-painted', { detail: { rows: rows.length } }));
    return () => cancelAnimationFrame(frame);
  }, [rows]);

  const toggleFold = (id: string) =>
    setFolded((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  /** Moves the focus to a row (scrolled into view first: it may not be in the page yet). */
  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(rows.length - 1, index));
    virtualizer.scrollToIndex(target);
    const tryFocus = (attempt: number) => {
      const el = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${target}"] :is(button, input)`);
      if (el) el.focus();
      else if (attempt < 5) requestAnimationFrame(() => tryFocus(attempt + 1));
    };
    tryFocus(0);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const from = (e.target as HTMLElement).closest<HTMLElement>('[data-row]');
    if (!from) return;
    const at = Number(from.dataset.row);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 };
    const to = moves[e.key];
    if (to === undefined) {
      const row = rows[at];
      if (row?.kind === 'group' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        if (row.folded === (e.key === 'ArrowRight')) toggleFold(row.group.id);
        e.preventDefault();
      }
      return;
    }
    e.preventDefault();
    focusRow(to);
  };

  // The visible rows, in runs of one group: each run is its own list named after the server.
  const runs: { group: ToolListGroup; rows: { row: ToolListRow; index: number; start: number }[] }[] = [];
  const headings: { row: Extract<ToolListRow, { kind: 'group' }>; index: number; start: number }[] = [];
  for (const item of items) {
    const row = rows[item.index];
    if (!row) continue;
    if (row.kind === 'group') headings.push({ row, index: item.index, start: item.start });
    else {
      const last = runs.at(-1);
      if (last && last.group.id === row.group.id) last.rows.push({ row, index: item.index, start: item.start });
      else runs.push({ group: row.group, rows: [{ row, index: item.index, start: item.start }] });
    }
  }

  return (
    <div className="tool-list-box">
      <div className="tool-list-search">
        <SearchBox
          label={`Search ${noun.many}`}
          describedBy={countId}
          onSearch={(text) => startTransition(() => setSearch(text))}
          onArrowDown={rows.length > 0 ? () => focusRow(0) : undefined}
        />
        <span id={countId} role="status" className="muted">
          {search.trim() ? `${matching} of ${tools.length} ${noun.many}` : `${tools.length} ${tools.length === 1 ? noun.one : noun.many}`}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="muted tool-list-empty">{search.trim() ? `No ${noun.one} matches “${search.trim()}”.` : `No ${noun.many}.`}</p>
      ) : (
        <div ref={scrollRef} className="tool-list-scroller" style={{ maxHeight: height }} onKeyDown={onKeyDown}>
          <div className="tool-list-space" style={{ height: virtualizer.getTotalSize() }}>
            {headings.map(({ row, index, start }) => (
              <div key={`g-${row.group.id}`} className="tool-list-group" data-row={index} style={{ transform: `translateY(${start}px)` }}>
                <button type="button" className="quiet tool-list-fold" aria-expanded={!row.folded} onClick={() => toggleFold(row.group.id)}>
                  <Icon icon={row.folded ? ChevronRight : ChevronDown} />
                  <span className="tool-list-group-name">{row.group.name}</span>{' '}
                  <span className="muted">
                    · {row.shown === row.total ? row.total : `${row.shown} of ${row.total}`} {noun.many}
                  </span>
                </button>
                {groupControl?.(row.group)}
                {groupNote && <span className="muted tool-list-group-note">{groupNote(row.group)}</span>}
              </div>
            ))}
            {runs.map((run) => (
              <ul
                key={`r-${run.group.id}-${run.rows[0]?.index}`}
                className="tool-list-run"
                aria-label={`${noun.Many} of ${run.group.name}`}
              >
                {run.rows.map(({ row, index, start }) =>
                  row.kind === 'tool' ? (
                    <li
                      key={`${row.group.id}/${row.tool.id ?? row.tool.name}`}
                      className={grouped ? 'tool-list-row grouped' : 'tool-list-row'}
                      data-row={index}
                      style={{ transform: `translateY(${start}px)` }}
                    >
                      <span className="tool-list-control">{control(row.tool as T)}</span>
                      {onOpen ? (
                        <button
                          type="button"
                          className="tool-name"
                          aria-current={(row.tool.id ?? row.tool.name) === selected ? 'true' : undefined}
                          onClick={() => onOpen(row.tool as T)}
                        >
                          {row.tool.name}
                        </button>
                      ) : (
                        <span className="tool-name">{row.tool.name}</span>
                      )}
                      <span className="muted tool-list-hint" title={row.tool.description}>
                        {row.tool.title ?? row.tool.description}
                      </span>
                      {row.tool.flags && row.tool.flags.length > 0 && (
                        <span className="tool-list-flag" title={row.tool.flags.map((flag) => flag.match).join('\n')}>
                          Flagged
                        </span>
                      )}
                      {after?.(row.tool as T)}
                    </li>
                  ) : null,
                )}
              </ul>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** The `Search tools` box: what is typed is its own state (a keystroke renders only it); the list hears of it through `onSearch`. */
function SearchBox({
  label,
  describedBy,
  onSearch,
  onArrowDown,
}: {
  label: string;
  describedBy: string;
  onSearch(text: string): void;
  onArrowDown?: () => void;
}) {
  const [text, setText] = useState('');
  return (
    <input
      type="search"
      aria-label={label}
      aria-describedby={describedBy}
      placeholder={label}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onSearch(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' && onArrowDown) {
          e.preventDefault();
          onArrowDown();
        }
      }}
    />
  );
}
