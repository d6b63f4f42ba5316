import type { ServerConfigView, ServerRuntime, ServerView } from '../../../src-preload/contract';

/** A server as the host would send it, with whatever the test cares about overridden. */
export function serverView(config: Partial<ServerConfigView> = {}, runtime: Partial<ServerRuntime> = {}): ServerView {
  return {
    config: {
      id: 'srv-1',
      name: 'echo',
      command: 'node',
      args: ['echo.mjs'],
      env: [],
      cwd: '',
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
