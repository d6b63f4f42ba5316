/**
 * The shell with the real store and every page: the command palette, shortcuts, the skip link,
 * routes that fall back, and the first-run path on Chat.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from './App';
import { serverView } from './features/servers/test-support/server-factories';
import { toolView } from './features/tools/test-support/tool-factories';
import { fakeHost, renderWithHost } from './test-support/fake-host';

afterEach(cleanup);
beforeAll(() => {
  // jsdom lays nothing out: cmdk scrolls the highlighted option into view.
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  // …and measures its list.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const ready = serverView({ id: 'srv-1', name: 'Everything (demo)', preset: 'everything' }, { status: 'ready' });
const ctrl = (key: string, extra: Partial<KeyboardEventInit> = {}) =>
  act(() => void fireEvent.keyDown(document.activeElement ?? document.body, { key, ctrlKey: true, ...extra }));

/** An idle, empty conversation as the host lists it. */
const conversation = (id: string, title: string) => ({
  id,
  title,
  createdAt: '',
  updatedAt: '',
  messageCount: 0,
  turn: 'idle' as const,
  serverIds: null,
});

describe('App shell', () => {
  it('Ctrl+K opens the command palette; typing filters; Enter goes to a tool in its server’s Tools tab', async () => {
    const host = fakeHost({ servers: [ready], replies: { listTools: () => [toolView({ name: 'get-sum', description: 'Adds' })] } });
    const { store } = await renderWithHost(<App />, host, 'chat');
    await ctrl('k');
    const palette = await screen.findByRole('dialog', { name: 'Command palette' });
    const input = within(palette).getByRole('combobox');
    expect(document.activeElement).toBe(input);
    await waitFor(() => expect(within(palette).getByRole('option', { name: /get-sum/ })).toBeTruthy());
    fireEvent.change(input, { target: { value: 'get-sum' } });
    await waitFor(() => expect(within(palette).getAllByRole('option')[0].textContent).toContain('get-sum'));
    await act(async () => void fireEvent.keyDown(input, { key: 'Enter' }));
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();
    expect(store.getState().route).toEqual({ page: 'servers', serverId: 'srv-1', tab: 'tools', tool: 'get-sum' });
    await screen.findByRole('form', { name: 'Run get-sum' });
    expect(screen.getByRole('tab', { name: /^Tools\b/ }).getAttribute('aria-selected')).toBe('true');

    // The sidebar goes back to the list, whatever detail is open.
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Servers' }));
    expect(store.getState().route).toEqual({ page: 'servers' });
    expect(screen.getByRole('list', { name: 'Servers' })).toBeTruthy();
  });

  it('the palette runs actions: a server’s Stop, and Add server opens its dialog on the Servers page', async () => {
    const host = fakeHost({ servers: [ready], replies: { listTools: () => [] } });
    const { store } = await renderWithHost(<App />, host, 'roots');
    const run = async (text: string, option: RegExp) => {
      await ctrl('k');
      const palette = await screen.findByRole('dialog', { name: 'Command palette' });
      fireEvent.change(within(palette).getByRole('combobox'), { target: { value: text } });
      await waitFor(() => expect(within(palette).getAllByRole('option')[0].textContent).toMatch(option));
      await act(async () => void fireEvent.keyDown(within(palette).getByRole('combobox'), { key: 'Enter' }));
    };
    await run('stop everything', /^Stop Everything \(demo\)/);
    await waitFor(() => expect(host.of('stopServer')).toEqual([{ id: 'srv-1' }]));
    await run('add server', /^Add server/);
    expect(store.getState().page).toBe('servers');
    expect(await screen.findByRole('dialog', { name: 'Add server' })).toBeTruthy();
  });

  it('Escape closes the palette and gives the focus back; Ctrl+K again toggles it', async () => {
    await renderWithHost(<App />, fakeHost({ replies: { listTools: () => [] } }), 'roots');
    const opener = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: /Commands/ });
    opener.focus();
    await ctrl('k');
    const input = within(await screen.findByRole('dialog', { name: 'Command palette' })).getByRole('combobox');
    await ctrl('k', { bubbles: true });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull());
    expect(document.activeElement).toBe(opener);
    await ctrl('k');
    await screen.findByRole('dialog', { name: 'Command palette' });
    fireEvent.keyDown(document.activeElement ?? input, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull());
  });

  it('/ focuses the message box from any page; the skip link focuses the main content', async () => {
    const { store } = await renderWithHost(<App />, fakeHost(), 'servers');
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(document.body.querySelector('a, button, input')).toBe(skip); // the first focusable element
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    await act(async () => void fireEvent.keyDown(document.body, { key: '/' }));
    expect(store.getState().page).toBe('chat');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })));
  });

  it('Ctrl+Shift+O starts a conversation and puts the cursor in its message box', async () => {
    const created = conversation('c-new', 'New conversation');
    const host = fakeHost({ replies: { createConversation: () => created, listMessages: () => ({ messages: [], hasMore: false }) } });
    const { store } = await renderWithHost(<App />, host, 'logs');
    await ctrl('O', { shiftKey: true });
    await waitFor(() => expect(store.getState().route).toEqual({ page: 'chat', conversationId: 'c-new' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })));
  });

  it('titles a server’s pages by the server, and the list by the page', async () => {
    const { store } = await renderWithHost(<App />, fakeHost({ servers: [ready] }), {
      page: 'servers',
      serverId: ready.config.id,
      tab: 'tools',
    });
    await waitFor(() => expect(document.title).toBe(`${ready.config.name} — Patchbay`));
    act(() => store.getState().go({ page: 'servers' }));
    await waitFor(() => expect(document.title).toBe('Servers — Patchbay'));
  });

  it('an address naming a server that is gone shows the list and says so', async () => {
    const { store } = await renderWithHost(<App />, fakeHost({ servers: [ready] }), { page: 'servers', serverId: 'gone', tab: 'tools' });
    await waitFor(() => expect(store.getState().route).toEqual({ page: 'servers' }));
    expect(screen.getByText('That server no longer exists: it may have been removed.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/no longer exists/)).toBeNull();
  });

  it('an address naming a conversation not loaded fetches it; one that is gone shows Chat and says so', async () => {
    const old = conversation('c-old', 'From last year');
    const host = fakeHost({
      replies: {
        getConversation: ({ id }: { id: string }) => (id === 'c-old' ? old : null),
        listMessages: () => ({ messages: [], hasMore: false }),
      },
    });
    const { store } = await renderWithHost(<App />, host, { page: 'chat', conversationId: 'c-old' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'From last year' })).toBeTruthy());
    act(() => store.getState().go({ page: 'chat', conversationId: 'c-deleted' }));
    await waitFor(() => expect(screen.getByText('That conversation no longer exists: it may have been deleted.')).toBeTruthy());
    // Chat shows its top level: the newest conversation there is.
    await waitFor(() => expect(store.getState().route).toEqual({ page: 'chat', conversationId: 'c-old' }));
  });

  it('first run: with no servers, Chat says so and adds the Everything demo in one click; with no key it points to the key', async () => {
    const empty = () => ({ entries: [] });
    const host = fakeHost({
      replies: { addPresetServer: () => ready, listToolAudit: empty, listInteractionAudit: empty, listContentAudit: empty },
    });
    const { store } = await renderWithHost(<App />, host, 'chat');
    const steps = screen.getByRole('region', { name: 'Get started' });
    expect(steps.textContent).toContain('No servers yet');
    fireEvent.click(within(steps).getByRole('button', { name: 'Add Everything (demo)' }));
    await waitFor(() => expect(host.of('addPresetServer')).toEqual([{ preset: 'everything' }]));
    host.emit({ name: 'serverUpdated', payload: ready });
    expect(within(steps).getByText('Done: Everything (demo) Ready.')).toBeTruthy();
    fireEvent.click(within(steps).getByRole('button', { name: 'Set the API key' }));
    expect(store.getState().route).toEqual({ page: 'settings', section: 'preferences' });
    // The key's field has the focus, ready to paste into.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('API key')));
  });
});
