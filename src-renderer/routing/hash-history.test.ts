/**
 * The store's route and the address, both ways, in jsdom's real history: reload, Back, Forward,
 * links, fallbacks, and the Chat page's open conversation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeHost } from '../test-support/fake-host';
import { createAppStore, type AppStore } from '../stores/app-store';
import { connectHashHistory } from './hash-history';

const popped = () => new Promise<void>((resolve) => window.addEventListener('popstate', () => resolve(), { once: true }));
let disconnect: (() => void) | undefined;

function start(hash: string): AppStore {
  history.replaceState(null, '', `/${hash}`);
  const store = createAppStore(fakeHost().transport);
  disconnect = connectHashHistory(store);
  return store;
}

beforeEach(() => history.replaceState(null, '', '/'));
afterEach(() => disconnect?.());

describe('connectHashHistory', () => {
  it('a reload shows the place the address names', () => {
    const store = start('#/servers/s-1/tools/get-sum');
    expect(store.getState().route).toEqual({ page: 'servers', serverId: 's-1', tab: 'tools', tool: 'get-sum' });
    expect(store.getState().page).toBe('servers');
    expect(location.hash).toBe('#/servers/s-1/tools/get-sum');
  });

  it('going somewhere adds a history entry; Back and Forward come back to each place', async () => {
    const store = start('#/servers');
    const before = history.length;
    store.getState().go({ page: 'servers', serverId: 's-1', tab: 'overview' });
    expect(location.hash).toBe('#/servers/s-1/overview');
    store.getState().go({ page: 'servers', serverId: 's-1', tab: 'logs' });
    store.getState().navigate('logs');
    expect(location.hash).toBe('#/logs');
    expect(history.length).toBe(before + 3);

    let back = popped();
    history.back();
    await back;
    expect(store.getState().route).toEqual({ page: 'servers', serverId: 's-1', tab: 'logs' });
    back = popped();
    history.back();
    await back;
    expect(store.getState().route).toEqual({ page: 'servers', serverId: 's-1', tab: 'overview' });
    const forward = popped();
    history.forward();
    await forward;
    expect(store.getState().route).toEqual({ page: 'servers', serverId: 's-1', tab: 'logs' });
    expect(history.length).toBe(before + 3); // reading the address back never adds an entry
  });

  it('the sidebar goes to the page’s top level, whatever detail is open', () => {
    const store = start('#/servers/s-1/resources');
    store.getState().navigate('servers');
    expect(store.getState().route).toEqual({ page: 'servers' });
    expect(location.hash).toBe('#/servers');
  });

  it('a link (a hash typed or clicked) is followed', async () => {
    const store = start('#/chat');
    const changed = new Promise<void>((resolve) => window.addEventListener('hashchange', () => resolve(), { once: true }));
    location.hash = '#/settings/providers';
    await changed;
    expect(store.getState().route).toEqual({ page: 'settings', section: 'providers' });
  });

  it('an address it does not know lands on Chat, says so, and the address says where it landed', () => {
    const store = start('#/nowhere/at-all');
    expect(store.getState().route).toEqual({ page: 'chat' });
    expect(store.getState().notice).toBe('Patchbay has no page at “#/nowhere/at-all”.');
    expect(location.hash).toBe('#/chat');
    store.getState().navigate('roots'); // moving on: the notice goes
    expect(store.getState().notice).toBeNull();
  });

  it('Chat’s route and its open conversation move together; Chat comes back to the open one', async () => {
    const store = start('#/chat/c-1');
    expect(store.getState().activeConversationId).toBe('c-1');
    store.getState().go({ page: 'chat', conversationId: 'c-2' });
    expect(store.getState().activeConversationId).toBe('c-2');
    expect(location.hash).toBe('#/chat/c-2');
    const back = popped();
    history.back();
    await back;
    expect(store.getState().activeConversationId).toBe('c-1');

    store.getState().navigate('servers');
    store.getState().navigate('chat');
    expect(location.hash).toBe('#/chat/c-1');

    // The chat itself changing the open conversation (the open one deleted) replaces the entry.
    const length = history.length;
    store.setState({ activeConversationId: null });
    expect(location.hash).toBe('#/chat');
    store.setState({ activeConversationId: 'c-3' });
    expect(location.hash).toBe('#/chat/c-3');
    expect(history.length).toBe(length);
  });

  it('an intent goes to the page that carries it out, once', () => {
    const store = start('#/settings');
    store.getState().request('add-server');
    const intent = store.getState().intent!;
    expect(intent.kind).toBe('add-server');
    expect(store.getState().page).toBe('servers');
    store.getState().finishIntent(intent);
    expect(store.getState().intent).toBeNull();
  });
});
