import { vi } from 'vitest';
import type { ServerConfigView, ServerRuntime, ServerView } from '@contract';
import type { ServerActions } from '../ServerCard';

/** A server as the host would send it, with whatever the test cares about overridden. */
export function serverView(config: Partial<ServerConfigView> = {}, runtime: Partial<ServerRuntime> = {}): ServerView {
  return {
    config: {
      id: 'srv-1',
      name: 'echo',
      transport: 'stdio',
      command: 'node',
      args: ['echo.mjs'],
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
      initTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      autoRestart: true,
      createdAt: '2025-01-01T00:00:00.000Z',
      ...config,
    },
    runtime: { status: 'stopped', since: new Date().toISOString(), ...runtime },
  };
}

/** A promise the test settles by hand, to see what the UI shows before and after. */
export function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Card actions that resolve at once and record their calls (sign-in starts in web mode by default). */
export function fakeActions(): { [K in keyof ServerActions]: ReturnType<typeof vi.fn<ServerActions[K]>> } {
  return {
    start: vi.fn<ServerActions['start']>(async () => undefined),
    stop: vi.fn<ServerActions['stop']>(async () => undefined),
    restart: vi.fn<ServerActions['restart']>(async () => undefined),
    remove: vi.fn<ServerActions['remove']>(async () => undefined),
    setEnabled: vi.fn<ServerActions['setEnabled']>(async () => undefined),
    signIn: vi.fn<ServerActions['signIn']>(async () => ({
      authorizationUrl: 'https://auth.example/authorize?client_id=p',
      openedByHost: false,
    })),
    signOut: vi.fn<ServerActions['signOut']>(async () => undefined),
  };
}
