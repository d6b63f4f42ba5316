import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogList, type LogListProps } from './LogList';
import { logEntry } from './test-support/log-host';

afterEach(cleanup);

function renderList(props: Partial<LogListProps> = {}) {
  const handlers = { onSelect: vi.fn(), onScrollAway: vi.fn(), onReachTop: vi.fn() };
  const rows = props.rows ?? Array.from({ length: 20_000 }, (_, i) => logEntry(i + 1));
  render(
    <LogList
      stream="output"
      label="Output entries"
      rows={rows}
      follow={false}
      selectedSeq={null}
      emptyText="No entries yet."
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('LogList', () => {
  it('renders a window of rows, not twenty thousand, and tells assistive technology the real size', () => {
    renderList();
    const items = within(screen.getByRole('list', { name: 'Output entries' })).getAllByRole('listitem');
    expect(items.length).toBeLessThan(40);
    expect(items[0].getAttribute('aria-setsize')).toBe('20000');
    expect(items[0].textContent).toContain('line 1');
  });

  it('shows the newest rows while following, and says when the user scrolls away', () => {
    const handlers = renderList({ follow: true });
    const items = within(screen.getByRole('list', { name: 'Output entries' })).getAllByRole('listitem');
    expect(items.at(-1)?.textContent).toContain('line 20000');
    expect(items.at(-1)?.getAttribute('aria-posinset')).toBe('20000');
    const scroller = screen.getByRole('list', { name: 'Output entries' }).parentElement!;
    scroller.scrollTop = 0; // jsdom does no layout: the user's scroll to the top, as the event reports it
    fireEvent.scroll(scroller);
    expect(handlers.onReachTop).toHaveBeenCalled();
  });

  it('selects a row by clicking it, and says so when there is nothing to show', () => {
    const handlers = renderList({ rows: [logEntry(1, { text: 'hello' })] });
    fireEvent.click(screen.getByRole('button', { name: /hello/ }));
    expect(handlers.onSelect).toHaveBeenCalledWith(expect.objectContaining({ seq: 1 }));
    cleanup();
    renderList({ rows: [] });
    expect(screen.getByRole('status').textContent).toBe('No entries yet.');
  });
});
