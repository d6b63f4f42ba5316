/**
 * The roots area as wired into the real host (createHost + dispatchCall, the path every bridge takes):
 * persistence, validation, policies, and the life of a "Share folders" question with a real server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '@contract';
import { tempDir } from '../../test-support/temp-dir';
import { hostApi, startTestHost } from '../../test-support/test-host';
import { referenceServer } from '../../test-support/fixtures';
import { waitFor } from '../servers/wait';
import { answerRoots } from '../../test-support/answers';

function startHost(dataDir?: string, extra: { pickFolder?: () => Promise<string | undefined>; consentTimeoutMs?: number } = {}) {
  const { host, events } = startTestHost({
    ...(dataDir ? { dataDir } : {}),
    connectionDefaults: { loginShellPath: async () => [] },
    pickFolder: extra.pickFolder,
    roots: { availabilityIntervalMs: 0, consentTimeoutMs: extra.consentTimeoutMs },
  });
  return { host, dataDir: host.info.dataDir, events };
}

const api = hostApi;

const realTemp = () => fs.realpathSync(tempDir('patchbay-roots-host-'));
const everything = () => {
  const spec = referenceServer('everything', ['stdio']);
  return { name: 'everything', command: spec.command, args: spec.args, enabled: false };
};
const consentEvents = (events: HostEvent[]) =>
  events.filter(
    (e) => (e.name === 'questionAsked' && e.payload.kind === 'roots') || (e.name === 'questionSettled' && e.payload.kind === 'roots'),
  );

describe('roots in the host', () => {
  it('keeps folders and policies in SQLite, and drops a removed folder or server from every policy', async () => {
    const { host, dataDir, events } = startHost();
    const base = realTemp();
    fs.mkdirSync(path.join(base, 'a'));
    fs.mkdirSync(path.join(base, 'b'));
    const a = await api(host).addRoot({ path: path.join(base, 'a'), name: '  Project A ' });
    const b = await api(host).addRoot({ path: path.join(base, 'b') });
    expect(a).toMatchObject({ name: 'Project A', path: path.join(base, 'a'), available: true });
    expect(b.name).toBe('b');
    expect(events.filter((e) => e.name === 'rootsChanged')).toHaveLength(2);

    const server = await api(host).addServer(everything());
    const sharing = await api(host).setRootSharing({ serverId: server.config.id, mode: 'subset', rootIds: [a.id, b.id, 'no-such-root'] });
    expect(sharing).toMatchObject({ mode: 'subset', rootIds: expect.arrayContaining([a.id, b.id]) });
    expect(sharing.rootIds).toHaveLength(2);
    await api(host).renameRoot({ id: a.id, name: 'Renamed' });
    await api(host).removeRoot({ id: b.id });
    await host.dispose();

    const again = startHost(dataDir).host;
    const { roots } = await api(again).getSnapshot();
    expect(roots.roots.map((r) => r.name)).toEqual(['Renamed']);
    expect(roots.sharing).toEqual([expect.objectContaining({ serverId: server.config.id, mode: 'subset', rootIds: [a.id] })]);
    expect(roots.audit[0]).toMatchObject({
      action: 'sharing',
      serverName: 'everything',
      roots: [
        { uri: a.uri, name: 'Project A' },
        { uri: b.uri, name: 'b' },
      ],
    });
    await api(again).removeServer({ id: server.config.id });
    expect((await api(again).getSnapshot()).roots.sharing).toEqual([]);
  });

  it('explains bad input next to the field', async () => {
    const { host } = startHost();
    const base = realTemp();
    fs.writeFileSync(path.join(base, 'file.txt'), 'x');
    await expect(api(host).addRoot({ path: path.join(base, 'file.txt') })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [{ path: ['path'], message: expect.stringContaining('not a folder') }],
    });
    await expect(api(host).addRoot({ path: 'relative/path' })).rejects.toMatchObject({ data: [{ path: ['path'] }] });
    await expect(api(host).addRoot({ path: base, name: ' ' })).rejects.toMatchObject({ data: [{ path: ['name'] }] });
    await api(host).addRoot({ path: base });
    await expect(api(host).addRoot({ path: `${base}/` })).rejects.toMatchObject({
      data: [{ path: ['path'], message: expect.stringContaining('Already added') }],
    });
    await expect(api(host).setRootSharing({ serverId: 'nope', mode: 'all' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api(host).listFolders({ path: path.join(base, 'missing') })).rejects.toMatchObject({ data: [{ path: ['path'] }] });
  });

  it('has a native folder picker only when the platform gives one', async () => {
    await expect(api(startHost().host).pickFolder()).rejects.toMatchObject({ code: 'forbidden' });
    const picked = startHost(undefined, { pickFolder: async () => '/picked' }).host;
    expect(await api(picked).pickFolder()).toEqual({ path: '/picked' });
    const cancelled = startHost(undefined, { pickFolder: async () => undefined }).host;
    expect(await api(cancelled).pickFolder()).toEqual({ path: null });
  });

  it('does not ask when there is nothing to share, asks once there is, and remembers "Don\'t share"', async () => {
    const { host, events } = startHost();
    const server = await api(host).addServer(everything());
    const id = server.config.id;
    await api(host).startServer({ id });
    await waitFor(async () => (await api(host).listRootsAudit({ serverId: id })).some((e) => e.action === 'sent'), {
      what: 'a roots/list',
      timeoutMs: 15_000,
    });
    expect(consentEvents(events)).toEqual([]);

    // A folder appears: the undecided server is nudged, asks again, and the user is asked.
    await api(host).addRoot({ path: realTemp() });
    const asked = await waitFor(() => events.find((e) => e.name === 'questionAsked' && e.payload.kind === 'roots'), {
      what: 'a question',
      timeoutMs: 15_000,
    });
    expect((await api(host).getSnapshot()).questions.filter((q) => q.kind === 'roots')).toEqual([asked.payload]);
    await answerRoots(api(host), { id: (asked.payload as { id: string }).id, share: false });
    expect((await api(host).getSnapshot()).roots.sharing.find((s) => s.serverId === id)).toMatchObject({ serverId: id, mode: 'none' });
    // The trail says what the user chose, in the dialog's words.
    const decided = (await api(host).listRootsAudit({ serverId: id })).filter((e) => e.action === 'sharing');
    expect(decided.map((e) => e.detail)).toEqual(['Shares no folders (you chose Don’t share when it asked)']);

    await api(host).restartServer({ id });
    await waitFor(async () => (await api(host).listRootsAudit({ serverId: id })).filter((e) => e.action === 'sent').length >= 3, {
      what: 'the restarted server to ask',
      timeoutMs: 15_000,
    });
    expect(consentEvents(events).filter((e) => e.name === 'questionAsked' && e.payload.kind === 'roots')).toHaveLength(1);
    expect((await api(host).listRootsAudit({ serverId: id })).filter((e) => e.action === 'sent').every((e) => e.roots.length === 0)).toBe(
      true,
    );
  });

  it('withdraws the question when the server stops, and settles open ones as "nothing shared" on shutdown', async () => {
    const { host, events } = startHost();
    await api(host).addRoot({ path: realTemp() });
    const id = (await api(host).addServer(everything())).config.id;
    await api(host).startServer({ id });
    await waitFor(() => events.some((e) => e.name === 'questionAsked' && e.payload.kind === 'roots'), {
      what: 'a question',
      timeoutMs: 15_000,
    });
    await api(host).stopServer({ id });
    expect(consentEvents(events).at(-1)).toMatchObject({
      name: 'questionSettled',
      payload: { kind: 'roots', serverId: id, outcome: 'withdrawn' },
    });
    expect((await api(host).getSnapshot()).questions.filter((q) => q.kind === 'roots')).toEqual([]);

    await api(host).startServer({ id });
    await waitFor(() => consentEvents(events).length === 3, { what: 'a second question', timeoutMs: 15_000 });
    await host.dispose();
    expect(consentEvents(events).at(-1)).toMatchObject({ name: 'questionSettled', payload: { kind: 'roots', outcome: 'shutdown' } });
  });

  it('counts a question nobody answers as "Don\'t share" for now, and notes it in the audit trail', async () => {
    const { host, events } = startHost(undefined, { consentTimeoutMs: 300 });
    await api(host).addRoot({ path: realTemp() });
    const id = (await api(host).addServer(everything())).config.id;
    await api(host).startServer({ id });
    await waitFor(() => events.some((e) => e.name === 'questionSettled' && e.payload.kind === 'roots'), {
      what: 'the question to expire',
      timeoutMs: 15_000,
    });
    expect(consentEvents(events).at(-1)).toMatchObject({ payload: { outcome: 'timed-out' } });
    const audit = await api(host).listRootsAudit({ serverId: id });
    expect(audit.some((e) => e.detail.includes('not answered within'))).toBe(true);
    expect((await api(host).getSnapshot()).roots.sharing).toEqual([]);
  });
});
