import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabelledSwitch } from '../../ui/LabelledSwitch';
import { ToolList } from './ToolList';
import type { ToolListItem } from './tool-list-rows';

afterEach(cleanup);

/** `servers` servers of `each` tools: "tool-<server>-<n>", described as "Does thing <n>". */
function catalog(servers: number, each: number) {
  const groups = Array.from({ length: servers }, (_, s) => ({ id: `s${s}`, name: `Server ${s}` }));
  const tools: ToolListItem[] = groups.flatMap((g, s) =>
    Array.from({ length: each }, (_, n) => ({ serverId: g.id, name: `tool-${s}-${n}`, description: `Does thing ${n}` })),
  );
  return { groups, tools };
}

function renderList(servers: number, each: number, onOffer = vi.fn()) {
  const { groups, tools } = catalog(servers, each);
  render(
    <ToolList
      groups={groups}
      tools={tools}
      control={(t) => <LabelledSwitch label={`Offer ${t.name} to the model`} checked onChange={(on) => onOffer(t.name, on)} />}
    />,
  );
  return onOffer;
}

const toolRows = () => screen.queryAllByRole('listitem');

describe('ToolList', () => {
  it('keeps 2,000 tools out of the page but a window of them, switch and name on one row', () => {
    renderList(30, 67);
    expect(screen.getByRole('status').textContent).toBe('2010 tools');
    expect(toolRows().length).toBeGreaterThan(5);
    expect(toolRows().length).toBeLessThan(60);
    const first = within(screen.getByRole('list', { name: 'Tools of Server 0' })).getAllByRole('listitem')[0]!;
    expect(within(first).getByRole('switch', { name: 'Offer tool-0-0 to the model' })).toBeTruthy();
    expect(first.textContent).toContain('tool-0-0');
    expect(first.textContent).toContain('Does thing 0');
  });

  it('searches names and descriptions, counts the matches, and says when nothing matches', async () => {
    renderList(3, 20);
    const box = screen.getByRole('searchbox', { name: 'Search tools' });
    await act(async () => fireEvent.change(box, { target: { value: 'tool-2-1' } }));
    // tool-2-1 and tool-2-10 … tool-2-19, all in Server 2: the other servers' headings go.
    expect(screen.getByRole('status').textContent).toBe('11 of 60 tools');
    expect(screen.queryByRole('list', { name: 'Tools of Server 0' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Server 2 · 11 of 20 tools' })).toBeTruthy();
    await act(async () => fireEvent.change(box, { target: { value: 'thing 12' } }));
    expect(toolRows().map((li) => li.textContent?.split('Does')[0])).toEqual(['tool-0-12', 'tool-1-12', 'tool-2-12']);
    await act(async () => fireEvent.change(box, { target: { value: 'nothing like it' } }));
    expect(screen.getByText('No tool matches “nothing like it”.')).toBeTruthy();
  });

  it('folds a server under its heading and opens it again', async () => {
    renderList(2, 3);
    const heading = screen.getByRole('button', { name: 'Server 0 · 3 tools' });
    expect(heading.getAttribute('aria-expanded')).toBe('true');
    await act(async () => fireEvent.click(heading));
    expect(heading.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('list', { name: 'Tools of Server 0' })).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Tools of Server 1' })).getAllByRole('listitem')).toHaveLength(3);
    await act(async () => fireEvent.click(heading));
    expect(within(screen.getByRole('list', { name: 'Tools of Server 0' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('moves by arrow keys from the search box through headings and rows; Left folds a heading', async () => {
    const onOffer = renderList(2, 2);
    const box = screen.getByRole('searchbox', { name: 'Search tools' });
    box.focus();
    await act(async () => fireEvent.keyDown(box, { key: 'ArrowDown' }));
    const heading = screen.getByRole('button', { name: 'Server 0 · 2 tools' });
    expect(document.activeElement).toBe(heading);
    await act(async () => fireEvent.keyDown(heading, { key: 'ArrowDown' }));
    const first = screen.getByRole('switch', { name: 'Offer tool-0-0 to the model' });
    expect(document.activeElement).toBe(first);
    await act(async () => fireEvent.click(first));
    expect(onOffer).toHaveBeenCalledWith('tool-0-0', false);
    await act(async () => fireEvent.keyDown(first, { key: 'End' }));
    expect(document.activeElement).toBe(screen.getByRole('switch', { name: 'Offer tool-1-1 to the model' }));
    await act(async () => fireEvent.keyDown(document.activeElement!, { key: 'Home' }));
    expect(document.activeElement).toBe(heading);
    await act(async () => fireEvent.keyDown(heading, { key: 'ArrowLeft' }));
    expect(heading.getAttribute('aria-expanded')).toBe('false');
  });

  it('without headings (one server) lists its tools and opens one by its name', () => {
    const onOpen = vi.fn();
    const { groups, tools } = catalog(1, 3);
    render(
      <ToolList groups={groups} tools={tools} grouped={false} control={() => null} onOpen={(t) => onOpen(t.name)} selected="tool-0-1" />,
    );
    expect(screen.queryByRole('button', { name: /Server 0/ })).toBeNull();
    const list = within(screen.getByRole('list', { name: 'Tools of Server 0' }));
    expect(list.getByRole('button', { name: 'tool-0-1' }).getAttribute('aria-current')).toBe('true');
    fireEvent.click(list.getByRole('button', { name: 'tool-0-2' }));
    expect(onOpen).toHaveBeenCalledWith('tool-0-2');
  });
});
