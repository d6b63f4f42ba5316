import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolOfferView, ToolSetView } from '@contract';
import { serverView } from '../servers/test-support/server-factories';
import { ServerToggles } from './ServerToggles';
import { ToolSetPicker } from './ToolSetPicker';

afterEach(cleanup);

const offer = (serverId: string, tool: string, offered = true): ToolOfferView => ({
  serverId,
  serverName: serverId,
  tool,
  offered,
  pinned: false,
});
const servers = [serverView({ id: 'a', name: 'Alpha' }, { status: 'ready' }), serverView({ id: 'b', name: 'Beta' }, { status: 'ready' })];
const tools = [offer('a', 'echo'), offer('a', 'add'), offer('a', 'slow', false), offer('b', 'search'), offer('b', 'fetch')];
const math: ToolSetView = {
  id: 'set-1',
  name: 'Math',
  members: {
    servers: [],
    tools: [
      { serverId: 'a', serverName: 'Alpha', tool: 'add' },
      { serverId: 'a', serverName: 'Alpha', tool: 'gone' },
    ],
  },
  unavailable: [{ kind: 'tool', label: 'gone on Alpha' }],
};

function renderPicker(props: Partial<Parameters<typeof ServerToggles>[0]> = {}) {
  const handlers = { onChange: vi.fn(), onOffer: vi.fn(), onSaveSet: vi.fn(async () => undefined) };
  render(<ServerToggles servers={servers} selected={null} tools={tools} {...handlers} {...props} />);
  return handlers;
}

describe('the chat tool picker', () => {
  it('counts the tools the model gets, of all tools: switched off, other servers and outside the set do not count', () => {
    renderPicker();
    expect(screen.getByText('Tools: 4 of 5 tools offered')).toBeTruthy();
    cleanup();
    renderPicker({ selected: ['b'] });
    expect(screen.getByText('Tools: 2 of 5 tools offered')).toBeTruthy();
    cleanup();
    renderPicker({ set: math });
    expect(screen.getByText('Tools: 1 of 5 tools offered (set Math)')).toBeTruthy();
  });

  it('each tool has its switch; "Save as tool set…" saves the selection (whole servers where all their offered tools are in)', async () => {
    const handlers = renderPicker({ selected: ['a', 'b'] });
    // jsdom does not open <details> on a click of its summary: open it as the browser would.
    const details = screen.getByText(/^Tools:/).closest('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const alpha = within(screen.getByRole('list', { name: 'Tools of Alpha' }));
    expect(alpha.getByRole('switch', { name: 'Offer slow to the model' }).getAttribute('aria-checked')).toBe('false');
    fireEvent.click(alpha.getByRole('switch', { name: 'Offer echo to the model' }));
    expect(handlers.onOffer).toHaveBeenCalledWith('a', 'echo', false);

    fireEvent.click(screen.getByRole('button', { name: 'Save as tool set…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as tool set' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Everything I use' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(handlers.onSaveSet).toHaveBeenCalledWith('Everything I use', { servers: ['a', 'b'], tools: [] });
  });
});

describe('the Tool set combobox', () => {
  it('names every set and "All offered tools"; a set with a missing member says so', () => {
    const onChange = vi.fn();
    render(<ToolSetPicker sets={[math]} value="set-1" onChange={onChange} />);
    const box = screen.getByRole('combobox', { name: 'Tool set' });
    expect(box.textContent).toBe('Math');
    expect(screen.getByRole('status').textContent).toBe(
      'Math: 1 tool in this set is no longer available: gone on Alpha. The rest of the set still applies; edit the set in Settings to drop them.',
    );
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All offered tools', 'Math']);
    fireEvent.click(screen.getByRole('option', { name: 'All offered tools' }));
    expect(onChange).toHaveBeenCalledWith(null);
  });
});
