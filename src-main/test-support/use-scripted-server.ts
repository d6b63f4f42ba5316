import { afterAll, beforeAll, beforeEach } from 'vitest';

/**
 * One scripted server (an LLM API stand-in) for the test file: started before all tests, reset before
 * each, stopped after all. Returns a stand-in that forwards to it once it runs.
 */
export function useScriptedServer<T extends object & { reset(): Promise<void>; stop(): Promise<void> }>(
  start: () => Promise<T>,
  what: string,
): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(async () => {
    await current?.stop();
  });
  beforeEach(async () => {
    await current!.reset();
  });
  return new Proxy({} as T, {
    get: (_target, key) => {
      if (!current) throw new Error(`${what} is not running (use it inside a test)`);
      return Reflect.get(current, key);
    },
  });
}
