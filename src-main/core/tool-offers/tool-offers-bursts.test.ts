/**
 * What servers starting cost the tool-offers area: its snapshot (every Ready server's tools, read
 * through `ServerFleet.refs`) is built again when a server becomes Ready or stops being Ready, not at
 * each state or catalog update on the way. Real host, real SQLite, the echo fixture as real servers;
 * `refs` is spied on and called through, to count the passes over the fleet.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '@contract';
import { fixture } from '../../test-support/fixtures';
import { startTestHost } from '../../test-support/test-host';
import { ServerFleet } from '../server-fleet/server-fleet';
import { waitFor } from '../servers/wait';

afterEach(() => {
  vi.restoreAllMocks();
});

const offeredServers = (event: HostEvent | undefined) =>
  new Set(event?.name === 'toolOffersChanged' ? event.payload.tools.map((tool) => tool.serverId) : []);

describe('the tool-offers snapshot while servers start and stop', () => {
  it('is built once per server becoming Ready or leaving Ready, not per state it passes through', async () => {
    const passes = vi.spyOn(ServerFleet.prototype, 'refs');
    const { api, events } = startTestHost();
    const echo = fixture('echo.mjs');
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      ids.push((await api.addServer({ name, command: echo.command, args: echo.args, enabled: true })).config.id);
    }
    const lastOffers = () => events.findLast((event) => event.name === 'toolOffersChanged');
    await waitFor(() => offeredServers(lastOffers()).size === 3, { timeoutMs: 30_000, what: "the three servers' tools offered" });

    // Each start passed through several states (queued, launching, negotiating, listing…) and catalog updates.
    const updates = events.filter((event) => event.name === 'serverUpdated').length;
    expect(updates).toBeGreaterThanOrEqual(3 * 3);
    expect(passes.mock.calls.length).toBeLessThanOrEqual(3);

    const before = passes.mock.calls.length;
    await api.stopServer({ id: ids[0] });
    await waitFor(() => !offeredServers(lastOffers()).has(ids[0]), { what: "the stopped server's tools withdrawn" });
    expect(offeredServers(lastOffers())).toEqual(new Set(ids.slice(1)));
    expect(passes.mock.calls.length - before).toBe(1);
  });
});
