/**
 * Per-tool control and tool sets through the host API, against real servers (server-everything, the
 * echo fixture), real SQLite and the scripted Messages API: what the model request carries is read
 * back from the scripted server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostApi, HostEvent } from '@contract';
import { fixture } from '../../test-support/fixtures';
import { startTestHost } from '../../test-support/test-host';
import { startScriptedLlm, type ScriptedLlm } from '../chat/test-support/scripted-llm';
import { waitFor } from '../servers/wait';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

async function ready(api: HostApi, id: string) {
  await waitFor(async () => (await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
    timeoutMs: 60_000,
    what: `server ${id} to be ready`,
  });
}

/** The tool names (without the server prefix) the model was offered in the last request. */
async function offeredInLastRequest(): Promise<string[]> {
  const requests = await llm.messageRequests();
  return (requests.at(-1)?.body?.tools ?? []).map((tool) => tool.name.replace(/^.*__/, ''));
}

/** Sends one message and waits for the scripted answer to end the turn. */
async function ask(api: HostApi, events: HostEvent[], conversationId: string, text: string) {
  await llm.script([{ type: 'text', text: 'Fine.' }]);
  const mark = events.length;
  await api.sendMessage({ conversationId, text });
  await waitFor(
    () => events.slice(mark).some((e) => e.name === 'conversationUpdated' && e.payload.id === conversationId && e.payload.turn === 'idle'),
    {
      timeoutMs: 20_000,
      what: 'the turn to end',
    },
  );
}

async function chatReady(api: HostApi) {
  await api.setApiKey({ apiKey: 'sk-ant-tool-offers' });
  await api.updateSettings({ anthropicBaseUrl: llm.url });
}

const offerOf = async (api: HostApi, serverId: string, tool: string) =>
  (await api.getSnapshot()).toolOffers.tools.find((t) => t.serverId === serverId && t.tool === tool);

describe('offering tools to the model', () => {
  it('a tool switched off is never in the model request; the choice survives a catalog refresh and a restart of Patchbay', async () => {
    const first = startTestHost();
    await chatReady(first.api);
    const server = await first.api.addPresetServer({ preset: 'everything' });
    const id = server.config.id;
    await ready(first.api, id);
    expect(await offerOf(first.api, id, 'echo')).toMatchObject({ offered: true, pinned: false });

    const after = await first.api.setToolOffered({ serverId: id, tool: 'echo', offered: false });
    expect(after.tools.find((t) => t.tool === 'echo')).toMatchObject({ offered: false });
    expect(first.events.at(-1)).toMatchObject({ name: 'toolOffersChanged' });
    await expect(first.api.setToolOffered({ serverId: 'no-such-server', tool: 'echo', offered: false })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'No server with id no-such-server: it may have been removed. Nothing was changed.',
    });
    await first.api.setToolPinned({ serverId: id, tool: 'get-sum', pinned: true });

    await llm.reset();
    const conversation = await first.api.createConversation();
    await ask(first.api, first.events, conversation.id, 'hello there');
    let offered = await offeredInLastRequest();
    expect(offered).toContain('get-sum');
    expect(offered).not.toContain('echo');
    // The user can still run it from the Tools tab.
    expect(await first.api.runTool({ serverId: id, tool: 'echo', args: { message: 'still mine' } })).toMatchObject({ status: 'ok' });

    // A catalog refresh: the server restarts and lists its tools again.
    await first.api.restartServer({ id });
    await ready(first.api, id);
    expect(await offerOf(first.api, id, 'echo')).toMatchObject({ offered: false });
    await first.host.dispose();

    const again = startTestHost({ dataDir: first.dataDir });
    await again.host.startServers();
    await ready(again.api, id);
    expect(await offerOf(again.api, id, 'echo')).toMatchObject({ offered: false });
    expect(await offerOf(again.api, id, 'get-sum')).toMatchObject({ offered: true, pinned: true });
    await llm.reset();
    await ask(again.api, again.events, conversation.id, 'and again');
    offered = await offeredInLastRequest();
    expect(offered).toContain('get-sum');
    expect(offered).not.toContain('echo');
  });

  it("new tools (first listing, list_changed) follow the server's default; a tool that goes and comes back keeps its choice", async () => {
    const { api, events } = startTestHost();
    const echo = fixture('echo.mjs');
    const server = await api.addServer({ name: 'grows', command: echo.command, args: echo.args, enabled: false });
    const id = server.config.id;
    // Before it was ever seen: its tools start off.
    await api.setServerOfferNew({ serverId: id, offerNew: false });
    await api.startServer({ id });
    await ready(api, id);
    await waitFor(async () => (await offerOf(api, id, 'echo')) !== undefined, { what: 'the tools in the snapshot' });
    expect(await offerOf(api, id, 'echo')).toMatchObject({ offered: false });
    expect((await api.getSnapshot()).toolOffers.offerNew).toEqual({ [id]: false });

    // One turned on by hand; then the default flips to on and a new tool appears through list_changed.
    await api.setToolOffered({ serverId: id, tool: 'add', offered: true });
    await api.setServerOfferNew({ serverId: id, offerNew: true });
    await api.runTool({ serverId: id, tool: 'add-tool', args: { name: 'fresh' } });
    await waitFor(() => events.some((e) => e.name === 'toolOffersChanged' && e.payload.tools.some((t) => t.tool === 'fresh')), {
      what: 'the new tool in a toolOffersChanged event',
    });
    expect(await offerOf(api, id, 'fresh')).toMatchObject({ offered: true });
    expect(await offerOf(api, id, 'echo')).toMatchObject({ offered: false });
    expect(await offerOf(api, id, 'add')).toMatchObject({ offered: true });

    // `fresh` goes away with a restart (the fixture forgets it) and comes back: it keeps "off".
    await api.setToolOffered({ serverId: id, tool: 'fresh', offered: false });
    await api.restartServer({ id });
    await ready(api, id);
    expect(await offerOf(api, id, 'fresh')).toBeUndefined();
    await api.runTool({ serverId: id, tool: 'add-tool', args: { name: 'fresh' } });
    await waitFor(async () => (await offerOf(api, id, 'fresh')) !== undefined, { what: 'fresh to come back' });
    expect(await offerOf(api, id, 'fresh')).toMatchObject({ offered: false });
  });
});

describe('tool sets', () => {
  it('a conversation with a set offers only the set; a removed member is reported and the rest kept; sets and choices survive a restart', async () => {
    const first = startTestHost();
    await chatReady(first.api);
    const everything = (await first.api.addPresetServer({ preset: 'everything' })).config.id;
    const echo = fixture('echo.mjs');
    const grows = (await first.api.addServer({ name: 'grows', command: echo.command, args: echo.args })).config.id;
    await Promise.all([ready(first.api, everything), ready(first.api, grows)]);

    const set = await first.api.saveToolSet({
      name: 'Coding',
      members: {
        servers: [grows],
        tools: [
          { serverId: everything, tool: 'get-sum' },
          { serverId: everything, tool: 'gone-tool' },
        ],
      },
    });
    expect(set.unavailable).toEqual([{ kind: 'tool', label: 'gone-tool on Everything (demo)' }]);
    // A tool switched off stays off inside a set.
    await first.api.setToolOffered({ serverId: grows, tool: 'slow', offered: false });

    await llm.reset();
    const conversation = await first.api.createConversation();
    expect(await first.api.setConversationToolSet({ id: conversation.id, toolSetId: set.id })).toMatchObject({ toolSetId: set.id });
    await ask(first.api, first.events, conversation.id, 'code something');
    expect((await offeredInLastRequest()).sort()).toEqual(['add', 'add-tool', 'echo', 'freeze', 'get-sum'].sort());

    // Remove a server the set names: the set says so and keeps the rest.
    await first.api.removeServer({ id: grows });
    const sets = (await first.api.getSnapshot()).toolOffers.sets;
    expect(sets[0].unavailable).toEqual([
      { kind: 'server', label: 'grows' },
      { kind: 'tool', label: 'gone-tool on Everything (demo)' },
    ]);
    await ask(first.api, first.events, conversation.id, 'and now?');
    expect(await offeredInLastRequest()).toEqual(['get-sum']);

    // Default for new conversations.
    await first.api.updateSettings({ defaultToolSetId: set.id });
    const second = await first.api.createConversation({ title: 'Second' });
    expect(second.toolSetId).toBe(set.id);
    await first.host.dispose();

    const again = startTestHost({ dataDir: first.dataDir });
    const snapshot = await again.api.getSnapshot();
    expect(snapshot.toolOffers.sets).toMatchObject([{ id: set.id, name: 'Coding' }]);
    expect(snapshot.chat.conversations.find((c) => c.id === conversation.id)?.toolSetId).toBe(set.id);

    // Deleting the set: conversations and the default go back to every offered tool.
    await again.api.deleteToolSet({ id: set.id });
    const after = await again.api.getSnapshot();
    expect(after.toolOffers.sets).toEqual([]);
    expect(after.settings.defaultToolSetId).toBe('');
    expect(after.chat.conversations.every((c) => c.toolSetId === undefined)).toBe(true);
    await expect(again.api.setConversationToolSet({ id: conversation.id, toolSetId: set.id })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('a set that takes in servers added later offers a server added after it was saved, not one left out; kept over a restart', async () => {
    const first = startTestHost();
    await chatReady(first.api);
    const echo = fixture('echo.mjs');
    const chosen = (await first.api.addServer({ name: 'chosen', command: echo.command, args: echo.args })).config.id;
    const leftOut = (await first.api.addServer({ name: 'left', command: echo.command, args: echo.args })).config.id;
    await Promise.all([ready(first.api, chosen), ready(first.api, leftOut)]);
    const set = await first.api.saveToolSet({ name: 'Growing', members: { servers: [chosen], tools: [], addedLater: true } });
    expect(set.members.addedLater?.knownServerIds.sort()).toEqual([chosen, leftOut].sort());

    const later = (await first.api.addServer({ name: 'later', command: echo.command, args: echo.args })).config.id;
    await ready(first.api, later);
    await llm.reset();
    const conversation = await first.api.createConversation();
    await first.api.setConversationToolSet({ id: conversation.id, toolSetId: set.id });
    await ask(first.api, first.events, conversation.id, 'use what you have');
    const servers = async () => [...new Set((await llm.messageRequests()).at(-1)?.body?.tools?.map((t) => t.name.split('__')[0]))].sort();
    expect(await servers()).toEqual(['chosen', 'later']);
    await first.host.dispose();

    // Saved with it: after a restart the set still takes in "later" (and the next server added) but not "left".
    const again = startTestHost({ dataDir: first.dataDir });
    await chatReady(again.api);
    await again.host.startServers();
    const [stored] = (await again.api.getSnapshot()).toolOffers.sets;
    expect(stored.members.addedLater?.knownServerIds.sort()).toEqual([chosen, leftOut].sort());
    await Promise.all([ready(again.api, chosen), ready(again.api, leftOut), ready(again.api, later)]);
    await llm.reset();
    await ask(again.api, again.events, conversation.id, 'and after a restart?');
    expect(await servers()).toEqual(['chosen', 'later']);
  }, 90_000);
});
