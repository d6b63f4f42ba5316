import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type CallResult, type HostEvent, type HostSnapshot, type ServerView } from '@contract';
import type { ConnectionState, HostTransport } from '../host-client';
import { fakeSnapshot } from '../test-support/fake-host';
import { createAppStore } from './app-store';

const snapshot: HostSnapshot = fakeSnapshot({ info: { version: '1.0.0' } });

/** A transport at the process boundary whose connection and events the test drives. */
function controllableTransport() {
  const eventListeners = new Set<(e: HostEvent) => void>();
  const stateListeners = new Set<(s: ConnectionState) => void>();
  const order: string[] = [];
  const transport: HostTransport = {
    async call(method): Promise<CallResult> {
      order.push(`call:${method}`);
      return { ok: true, value: snapshot };
    },
    subscribe(listener) {
      order.push('subscribe');
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnectionChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
  };
  return {
    transport,
    order,
    setState: (s: ConnectionState) => stateListeners.forEach((l) => l(s)),
    emit: (e: HostEvent) => eventListeners.forEach((l) => l(e)),
  };
}

describe('createAppStore', () => {
  it('subscribes before asking for the snapshot, and reloads it on every reconnect', async () => {
    const t = controllableTransport();
    const store = createAppStore(t.transport);
    t.setState('connected');
    await expect.poll(() => store.getState().info?.version).toBe('1.0.0');
    expect(t.order).toEqual(['subscribe', 'call:getSnapshot']);

    t.setState('disconnected');
    expect(store.getState().connection).toBe('disconnected');
    t.setState('connected');
    await expect.poll(() => t.order.filter((o) => o === 'call:getSnapshot').length).toBe(2);
    expect(store.getState().connection).toBe('connected');
  });

  it('applies settingsChanged events', () => {
    const t = controllableTransport();
    const store = createAppStore(t.transport);
    t.emit({ name: 'settingsChanged', payload: { ...DEFAULT_SETTINGS, theme: 'dark' } });
    expect(store.getState().settings?.theme).toBe('dark');
  });

  it('keeps servers in order through serverUpdated and serverRemoved', () => {
    const t = controllableTransport();
    const store = createAppStore(t.transport);
    const server = (id: string, status: 'stopped' | 'ready'): ServerView => ({
      config: {
        id,
        name: id,
        transport: 'stdio',
        command: 'node',
        args: [],
        env: [],
        cwd: '',
        url: '',
        headers: [],
        oauthClientId: '',
        oauthClientSecretSet: false,
        signInMode: 'browser',
        oauthClientAuth: 'client_secret',
        oauthPrivateKeySet: false,
        oauthAssertionCommand: '',
        oauthIssuer: '',
        idpIssuer: '',
        idpTokenEndpoint: '',
        idpClientId: '',
        idpClientSecretSet: false,
        idpIdTokenCommand: '',
        enabled: true,
        initTimeoutMs: 1,
        requestTimeoutMs: 1,
        autoRestart: true,
        createdAt: '',
      },
      runtime: { status, since: '' },
    });
    t.emit({ name: 'serverUpdated', payload: server('a', 'stopped') });
    t.emit({ name: 'serverUpdated', payload: server('b', 'stopped') });
    t.emit({ name: 'serverUpdated', payload: server('a', 'ready') });
    expect(store.getState().serverOrder).toEqual(['a', 'b']);
    expect(store.getState().servers.a.runtime.status).toBe('ready');
    t.emit({ name: 'serverRemoved', payload: { id: 'a' } });
    expect(store.getState().serverOrder).toEqual(['b']);
    expect(Object.keys(store.getState().servers)).toEqual(['b']);
  });
});
