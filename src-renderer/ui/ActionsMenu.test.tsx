import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionsMenu } from './ActionsMenu';

afterEach(cleanup);

// One module instance for the file: the first test meets the stand-in (the menu's chunk not fetched
// yet), the ones after it the loaded menu.
describe('ActionsMenu (the "⋯" menu, its Radix part a chunk of its own)', () => {
  it('opens on the first press even before its chunk arrived, with the focus on its trigger', async () => {
    const rename = vi.fn();
    render(<ActionsMenu label="Actions for Sums" actions={[{ label: 'Rename', onSelect: rename }]} />);
    const trigger = screen.getByRole('button', { name: 'Actions for Sums' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();

    trigger.focus();
    await act(async () => fireEvent.keyDown(trigger, { key: 'ArrowDown' }));
    const menu = await screen.findByRole('menu', { name: 'Actions for Sums' });
    // Opened as a key press opens it: the first item has the focus.
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Rename' }));
    await act(async () => fireEvent.click(within(menu).getByRole('menuitem', { name: 'Rename' })));
    expect(rename).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
    // The trigger now is the menu's own (it replaced the stand-in), and it gets the focus back.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Actions for Sums' })));
  });

  it('a mouse press on the stand-in opens the menu too, once its chunk arrives', async () => {
    vi.resetModules(); // a fresh module: the menu's chunk not fetched yet
    const { ActionsMenu: FreshMenu } = await import('./ActionsMenu');
    render(<FreshMenu label="Actions for Rent" actions={[{ label: 'Rename', onSelect: () => {} }]} />);
    const standIn = screen.getByRole('button', { name: 'Actions for Rent' });
    expect(standIn.getAttribute('data-state')).toBeNull(); // not Radix's trigger yet
    await act(async () => fireEvent.pointerDown(standIn, { button: 0, pointerType: 'mouse' }));
    expect(within(await screen.findByRole('menu', { name: 'Actions for Rent' })).getAllByRole('menuitem')).toHaveLength(1);
  });

  it('once loaded, is the Radix menu from the first render: a mouse press opens it', async () => {
    const remove = vi.fn();
    render(<ActionsMenu label="Actions for Taxes" actions={[{ label: 'Delete', danger: true, onSelect: remove }]} />);
    const trigger = await screen.findByRole('button', { name: 'Actions for Taxes' });
    await act(async () => fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false, pointerType: 'mouse' }));
    const item = within(await screen.findByRole('menu', { name: 'Actions for Taxes' })).getByRole('menuitem', { name: 'Delete' });
    expect(item.className).toContain('danger');
    await act(async () => fireEvent.click(item));
    expect(remove).toHaveBeenCalledTimes(1);
  });
});
