/**
 * Host-level helpers for the tools and consent suites: a real host on a temp data directory, called
 * the way every bridge calls it (`dispatchCall`, validated by the contract), real servers, and waits
 * on events rather than sleeps.
 */
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { HostApi, HostEvent, HostEventName, HostEvents, HostMethodName, ServerInput } from '../../../../src-preload/contract';
import { tempDir } from '../../../test-support/temp-dir';
import { createHost, type Host } from '../../host';
import { dispatchCall, HostCallError } from '../../rpc/dispatch';
import { FIXTURES_DIR, REPO_ROOT } from '../../servers/test-support/fixtures';
import { waitFor } from '../../servers/wait';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.dispose()));
});

/** Calls the host as a renderer would: through the contract's validation. */
export function apiOf(host: Host): HostApi {
  return new Proxy({} as HostApi, {
    get: (_target, method: HostMethodName) => async (input?: unknown) => {
      const result = await dispatchCall(host.handlers, method, input);
      if (!result.ok) throw new HostCallError(result.error.code, result.error.message, result.error.data);
      return result.value;
    },
  });
}

export interface TestHost {
  host: Host;
  api: HostApi;
  dataDir: string;
  events: HostEvent[];
  /** Resolves with the first event (from now on, or already seen after `since`) matching. */
  next<K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean, since?: number): Promise<HostEvents[K]>;
  count<K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean): number;
  /** Adds a server and waits until it is ready; returns its id. */
  addServer(input: ServerInput): Promise<string>;
  fixture(file: string, extra?: Partial<ServerInput>): Promise<string>;
  everything(): Promise<string>;
}

export function startHost(dataDir = tempDir()): TestHost {
  const host = createHost({
    mode: 'web',
    dataDir,
    appVersion: '0.0.0-test',
    connectionDefaults: { shutdown: { stdinGraceMs: 300, termGraceMs: 300 }, restart: { baseDelayMs: 20 }, timeouts: { pingIntervalMs: 0 } },
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.events.subscribe((event) => events.push(event));
  const api = apiOf(host);
  const matching = <K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean, since = 0) =>
    events.slice(since).filter((e): e is Extract<HostEvent, { name: K }> => e.name === name && (!match || match(e.payload as HostEvents[K])));

  const addServer = async (input: ServerInput) => {
    const added = await api.addServer(input);
    const id = added.config.id;
    await waitFor(async () => (await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
      timeoutMs: 30_000,
      what: `${input.name} to be ready`,
    }).catch(async () => expect.fail(`${input.name} did not become ready: ${JSON.stringify((await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime)}`));
    return id;
  };

  return {
    host,
    api,
    dataDir,
    events,
    async next(name, match, since = events.length) {
      const [found] = await waitFor(() => {
        const hits = matching(name, match, since);
        return hits.length > 0 ? hits : undefined;
      }, { timeoutMs: 20_000, what: `event ${name}` });
      return found.payload as HostEvents[typeof name];
    },
    count: (name, match) => matching(name, match).length,
    addServer,
    fixture: (file, extra = {}) => addServer({ name: file.replace(/\.mjs$/, ''), command: process.execPath, args: [path.join(FIXTURES_DIR, file)], ...extra }),
    everything: () =>
      addServer({ name: 'everything', command: process.execPath, args: [path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] }),
  };
}
