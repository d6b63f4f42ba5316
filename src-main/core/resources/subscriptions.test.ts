/**
 * Followed resources through the contract: updates become `resourceUpdated`, subscriptions survive a
 * restart of the server and of the host (re-subscribed), end when the user unsubscribes; both eras.
 * Also `list_changed`: the lists are walked again and the renderer is told.
 */
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FIXTURES_DIR } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { tempDir } from '../../test-support/temp-dir';
import { startModernHttpServer } from '../servers/test-support/http-servers';
import { waitFor } from '../servers/wait';

const LAB = path.join(FIXTURES_DIR, 'content-lab.mjs');
const lab = (t: TestHost, name: string, ...flags: string[]) => t.addServer({ name, command: process.execPath, args: [LAB, ...flags] });

/** The fixture's stderr lines so far (it logs "subscribed <uri>" and what it receives). */
async function stderr(t: TestHost, serverId: string): Promise<string[]> {
  const page = await t.api.queryLogs({ serverId, stream: 'output', limit: 500 });
  return page.entries.map((e) => e.text);
}

async function waitForState(t: TestHost, serverId: string, uri: string, state: string) {
  await waitFor(
    async () =>
      (await t.api.getSnapshot()).resources.subscriptions.some((s) => s.serverId === serverId && s.uri === uri && s.state === state),
    { what: `${uri} to be ${state}` },
  );
}

describe('followed resources (2025 era)', () => {
  it('reports updates, re-subscribes after a server restart and a host restart, and stops on unsubscribe', async () => {
    const dataDir = tempDir();
    const t = startHost(dataDir);
    const id = await lab(t, 'lab');
    const uri = 'lab://items/0005';
    const list = await t.api.subscribeResource({ serverId: id, uri });
    expect(list).toEqual([expect.objectContaining({ serverId: id, uri, state: 'active' })]);

    await t.api.runTool({ serverId: id, tool: 'touch', args: { uri } });
    expect(await t.next('resourceUpdated', (u) => u.uri === uri, 0)).toMatchObject({ serverId: id, uri, at: expect.any(String) });
    expect((await t.api.getSnapshot()).resources.subscriptions[0].updatedAt).toEqual(expect.any(String));

    await t.api.restartServer({ id });
    await waitForState(t, id, uri, 'active');
    await waitFor(async () => (await stderr(t, id)).filter((line) => line === `subscribed ${uri}`).length === 2, {
      what: 'the restarted server to be subscribed again',
    });

    // A new host on the same data directory (an app restart) follows it again.
    await t.host.dispose();
    const again = startHost(dataDir);
    onTestFinished(() => again.host.dispose());
    again.host.startServers();
    await waitForState(again, id, uri, 'active');
    await again.api.runTool({ serverId: id, tool: 'touch', args: { uri } });
    await again.next('resourceUpdated', (u) => u.uri === uri, 0);

    expect(await again.api.unsubscribeResource({ serverId: id, uri })).toEqual([]);
    expect(JSON.stringify(await again.api.runTool({ serverId: id, tool: 'touch', args: { uri } }))).toContain('is not subscribed');
    const actions = (await again.api.listContentAudit({})).entries.map((e) => `${e.action} ${e.target}`);
    expect(actions).toEqual([`unsubscribe ${uri}`, `subscribe ${uri}`]);
  });

  it('refuses to follow on a server without subscriptions, and follows server-everything’s simulated updates', async () => {
    const t = startHost();
    const plain = await lab(t, 'plain', '--no-subscribe');
    const everything = await t.everything();
    onTestFinished(() => t.host.dispose());
    await expect(t.api.subscribeResource({ serverId: plain, uri: 'lab://items/0001' })).rejects.toThrow(
      'Server "plain" does not offer resource subscriptions.',
    );
    expect((await t.api.getSnapshot()).resources.subscriptions).toEqual([]);

    const doc = (await t.api.listResources({ serverIds: [everything] })).items[0].uri;
    await t.api.subscribeResource({ serverId: everything, uri: doc });
    await t.api.runTool({ serverId: everything, tool: 'toggle-subscriber-updates', args: {} });
    expect(await t.next('resourceUpdated', (u) => u.serverId === everything, 0)).toMatchObject({ uri: doc });
  });

  it('walks the list again on list_changed and tells the renderer', async () => {
    const t = startHost();
    const id = await lab(t, 'lab');
    onTestFinished(() => t.host.dispose());
    const before = (await t.api.listResources({ serverIds: [id] })).total;
    const since = t.events.length;
    await t.api.runTool({ serverId: id, tool: 'add-resource', args: { name: 'fresh' } });
    await t.next('serverContentChanged', (c) => c.serverId === id, since);
    await waitFor(async () => (await t.api.listResources({ serverIds: [id] })).total === before + 1, { what: 'the new list' });
    expect((await t.api.listResources({ serverIds: [id], filter: 'fresh' })).items).toEqual([
      expect.objectContaining({ uri: 'lab://added/fresh', name: 'fresh' }),
    ]);
  });
});

describe('followed resources (2026 era)', () => {
  it('opens a subscriptions/listen stream and reports the update the server publishes', async () => {
    const server = await startModernHttpServer();
    const t = startHost();
    const id = await t.addServer({ name: 'modern', transport: 'http', url: server.url });
    onTestFinished(() => t.host.dispose());
    expect(await t.api.subscribeResource({ serverId: id, uri: 'memo://notes' })).toEqual([
      expect.objectContaining({ uri: 'memo://notes', state: 'active' }),
    ]);
    await t.api.runTool({ serverId: id, tool: 'touch-notes', args: {} });
    expect(await t.next('resourceUpdated', (u) => u.uri === 'memo://notes', 0)).toMatchObject({ serverId: id });
    expect((await t.api.readResource({ serverId: id, uri: 'memo://notes', purpose: 'update' })).contents[0]).toMatchObject({
      text: 'Notes, version 2',
    });
    await t.api.unsubscribeResource({ serverId: id, uri: 'memo://notes' });
    expect((await t.api.getSnapshot()).resources.subscriptions).toEqual([]);
  });

  it('walks the list again when the server publishes list_changed on the subscriptions/listen stream', async () => {
    const server = await startModernHttpServer();
    const t = startHost();
    const id = await t.addServer({ name: 'modern', transport: 'http', url: server.url });
    onTestFinished(() => t.host.dispose());
    expect((await t.api.listResources({ serverIds: [id] })).total).toBe(2);
    const since = t.events.length;
    await t.api.runTool({ serverId: id, tool: 'add-note', args: { name: 'fresh' } });
    await t.next('serverContentChanged', (c) => c.serverId === id, since);
    expect((await t.api.listResources({ serverIds: [id], filter: 'fresh' })).items).toEqual([
      expect.objectContaining({ uri: 'memo://extra/fresh', name: 'fresh' }),
    ]);
  });
});
