/**
 * A scripted LLM API stand-in for a spec file: started once, reset before each test, stopped at the
 * end. The web host inherits this process's environment, so the key variables the server stands in
 * for are removed first: a key from the developer's shell must not make a "no API key" case pass or
 * reach the scripted server.
 */
import { test } from './web-host';

/** Registers the hooks; call the returned function inside a test to get the running server. */
export function useScriptedServer<T extends { reset(): Promise<void>; stop(): Promise<void> }>(
  start: () => Promise<T>,
  options: { what: string; dropEnv: string[] },
): () => T {
  for (const name of options.dropEnv) delete process.env[name];
  let server: T | undefined;
  test.beforeAll(async () => {
    server = await start();
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  test.beforeEach(async () => {
    await server?.reset();
  });
  return () => {
    if (!server) throw new Error(`${options.what} is not running (its hooks did not run)`);
    return server;
  };
}
