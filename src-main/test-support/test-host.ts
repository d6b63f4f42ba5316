import { afterEach } from 'vitest';
import type { HostApi, HostEvent } from '@contract';
import { createHost, type Host } from '../core/host';
import type { HostPorts } from '../core/ports';
import { inProcessApi } from '../core/rpc/dispatch';
import { tempDir } from './temp-dir';

const running: Host[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((host) => host.dispose()));
});

/** Calls the host the way every bridge does: validated by the contract's schemas, errors as HostCallError. */
export function hostApi(host: Host): HostApi {
  return inProcessApi(host.handlers);
}

/**
 * A real host on a temp data directory, disposed after the test, with short shutdown waits and
 * restart backoff so tests stay quick. `events` collects everything it emits.
 */
export function startTestHost(ports: Partial<HostPorts> = {}) {
  const dataDir = ports.dataDir ?? tempDir();
  const host = createHost({
    mode: 'web',
    appVersion: '0.0.0-test',
    // Fixtures added through the API predate the sandbox default; the default's own tests pass true.
    sandboxByDefault: false,
    ...ports,
    dataDir,
    connectionDefaults: {
      shutdown: { stdinGraceMs: 300, termGraceMs: 300 },
      restart: { baseDelayMs: 20 },
      ...ports.connectionDefaults,
    },
  });
  running.push(host);
  const events: HostEvent[] = [];
  host.events.subscribe((event) => events.push(event));
  return { host, dataDir, events, api: hostApi(host) };
}
