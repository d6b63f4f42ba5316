/**
 * Roots against real servers: server-filesystem started without directories (it takes its allowed
 * directories from roots), server-everything's `get-roots-list`, and a 2026-era fixture that asks for
 * roots through an `input_required` round. Every test ends with no server process left behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referenceServer, testScope, type TestScope } from '../../test-support/fixtures';
import { waitFor } from '../servers/wait';
import { rootUri } from './root-path';
import { rootsHarness, type RootsHarness } from './test-support/roots-harness';

const MODERN_FIXTURE = fileURLToPath(new URL('./test-support/modern-roots-server.mjs', import.meta.url));

/**
 * A real (symlink-free) temp folder holding `files`, removed when the test ends. (Not the shared
 * tempDir(): its afterEach removes every test's folders, which concurrent tests cannot have.)
 */
function folder(scope: TestScope, name: string, files: Record<string, string> = {}): string {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-roots-')));
  scope.defer(() => fs.rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

/** Polls a tool until its text satisfies `ok` (the server learns about changes asynchronously). */
async function toolTextUntil(h: RootsHarness, id: string, tool: string, ok: (text: string) => boolean, what: string): Promise<string> {
  let last = '';
  await waitFor(
    async () => {
      const connection = h.fleet.connection(id);
      if (connection?.state.status !== 'ready') return false;
      last = h.text(
        await connection.callTool(tool, {}).catch((error: Error) => ({ content: [{ type: 'text' as const, text: error.message }] })),
      );
      return ok(last);
    },
    { timeoutMs: 20_000, intervalMs: 100, what },
  ).catch(() => expect.fail(`${what}; last answer:\n${last}`));
  return last;
}

describe.concurrent('server-filesystem without directory arguments', () => {
  it('works in exactly the folder shared on the first ask, and is refused once it is removed', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const dir = folder(scope, 'project', { 'note.txt': 'inside the shared folder\n' });
    const other = folder(scope, 'private', { 'secret.txt': 'not shared\n' });
    const root = await h.call('addRoot', { path: dir });
    await h.call('addRoot', { path: other });
    const id = h.addServer('files', referenceServer('filesystem'));

    const started = h.start(id);
    const question = await h.openConsent(id);
    expect(question).toMatchObject({ serverId: id, serverName: 'files' });
    await h.call('answerQuestion', { id: question.id, answer: { kind: 'roots', share: true, rootIds: [root.id] } });
    await started;

    const allowed = await toolTextUntil(h, id, 'list_allowed_directories', (t) => t.includes(dir), 'the shared folder to be allowed');
    expect(allowed).not.toContain(other);
    expect(h.text(await h.tool(id, 'read_text_file', { path: path.join(dir, 'note.txt') }))).toBe('inside the shared folder\n');
    expect((await h.tool(id, 'read_text_file', { path: path.join(other, 'secret.txt') })).isError).toBe(true);
    await expect(h.call('answerQuestion', { id: question.id, answer: { kind: 'roots', share: false } })).rejects.toMatchObject({
      code: 'invalid_input',
    });

    await h.call('removeRoot', { id: root.id });
    await toolTextUntil(h, id, 'list_allowed_directories', (t) => !t.includes(dir), 'the removed folder to be gone');
    const refused = await h.tool(id, 'read_text_file', { path: path.join(dir, 'note.txt') });
    expect(refused.isError).toBe(true);
    expect(h.text(refused)).toMatch(/access denied/i);

    const audit = await h.call('listRootsAudit', { serverId: id });
    expect(audit.some((e) => e.action === 'sent' && e.roots.some((r) => r.uri === rootUri(dir)))).toBe(true);
    expect(audit.some((e) => e.action === 'sharing' && e.detail.includes('you chose Share when it asked'))).toBe(true);
    // It was told "no folders" by a restart: the reference server ignores an empty list (see RootsConnections.notify).
    expect(audit.some((e) => e.detail.startsWith('Restarted'))).toBe(true);
    expect(audit.flatMap((e) => e.roots).some((r) => r.uri === rootUri(other))).toBe(false);
  });

  it('reads through URIs with spaces, unicode and #, and gets a symlink’s real target', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const odd = folder(scope, 'my folder ü 日本 #1', { 'ünï côdé.txt': 'odd names are fine\n' });
    const outside = folder(scope, 'outside-target', { 'far.txt': 'reached through a link\n' });
    const link = path.join(folder(scope, 'links'), 'link to outside');
    fs.symlinkSync(outside, link, 'dir');

    const oddRoot = await h.call('addRoot', { path: odd });
    expect(oddRoot.uri).toBe(`file://${odd.split('/').map(encodeURIComponent).join('/')}`);
    expect(fileURLToPath(oddRoot.uri)).toBe(odd);
    const linked = await h.call('addRoot', { path: link, name: 'Linked' });
    expect(linked).toMatchObject({ path: outside, pickedPath: link, uri: rootUri(outside), available: true });
    await expect(h.call('addRoot', { path: outside })).rejects.toMatchObject({ code: 'invalid_input', data: [{ path: ['path'] }] });

    const id = h.addServer('files', referenceServer('filesystem'));
    await h.call('setRootSharing', { serverId: id, mode: 'all' });
    await h.start(id);
    const allowed = await toolTextUntil(h, id, 'list_allowed_directories', (t) => t.includes(odd) && t.includes(outside), 'both folders');
    expect(allowed).not.toContain(link);
    expect(h.text(await h.tool(id, 'read_text_file', { path: path.join(odd, 'ünï côdé.txt') }))).toBe('odd names are fine\n');
    expect(h.text(await h.tool(id, 'read_text_file', { path: path.join(outside, 'far.txt') }))).toBe('reached through a link\n');
  });
});

describe.concurrent('one folder added while several servers run', () => {
  it('asks once: the servers that ask form one group, answered together; each then works in the folder', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const ids = ['files A', 'files B'].map((name) => h.addServer(name, referenceServer('filesystem')));
    await Promise.all(ids.map((id) => h.start(id)));
    expect(h.events.some((e) => e.name === 'questionAsked' && e.payload.kind === 'roots')).toBe(false); // no folders yet: nothing to ask

    const dir = folder(scope, 'new project', { 'todo.txt': 'one folder, one question\n' });
    await h.call('addRoot', { path: dir });
    const questions = await Promise.all(ids.map((id) => h.openConsent(id)));
    expect(new Set(questions.map((q) => q.groupId)).size).toBe(1);
    const mark = h.events.length;
    await h.call('answerQuestion', { id: questions[0].id, answer: { kind: 'roots', share: true, wholeGroup: true } });
    const policies = h.sharing().filter((p) => ids.includes(p.serverId));
    // In the order the servers asked, which is theirs to decide: compared as a set.
    expect(policies.map((p) => [p.serverId, p.mode]).sort()).toEqual(ids.map((id) => [id, 'all']).sort());
    // The renderer hears of both decisions in one change, and both questions settle as shared.
    expect(h.events.slice(mark).filter((e) => e.name === 'rootsChanged')).toHaveLength(1);
    expect(
      h.events.slice(mark).filter((e) => e.name === 'questionSettled' && e.payload.kind === 'roots' && e.payload.outcome === 'shared'),
    ).toHaveLength(2);

    for (const id of ids) {
      await toolTextUntil(h, id, 'list_allowed_directories', (t) => t.includes(dir), `${id} to be allowed the folder`);
      expect(h.text(await h.tool(id, 'read_text_file', { path: path.join(dir, 'todo.txt') }))).toBe('one folder, one question\n');
    }
  });
});

describe.concurrent('server-everything get-roots-list', () => {
  it('shows exactly the shared roots, and the new list after each change', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const [a, b, c] = await Promise.all(
      ['alpha', 'beta', 'gamma'].map((name) => h.call('addRoot', { path: folder(scope, name), name: `Folder ${name}` })),
    );
    const id = h.addServer('everything', referenceServer('everything', ['stdio']));
    await h.call('setRootSharing', { serverId: id, mode: 'subset', rootIds: [a.id, b.id] });
    await h.start(id);

    const first = await toolTextUntil(h, id, 'get-roots-list', (t) => t.includes('(2 total)'), 'two roots');
    expect(first).toContain(a.uri);
    expect(first).toContain('Folder alpha');
    expect(first).toContain(b.uri);
    expect(first).not.toContain(c.uri);

    // What went over the wire: roots declared with listChanged, and one notification per change.
    const sent = (method: string) => h.wire.filter((w) => w.direction === 'out' && 'method' in w.message && w.message.method === method);
    expect(sent('initialize')[0].message).toMatchObject({ params: { capabilities: { roots: { listChanged: true } } } });
    expect(sent('notifications/roots/list_changed')).toHaveLength(0);

    await h.call('renameRoot', { id: b.id, name: 'Beta renamed' });
    await toolTextUntil(h, id, 'get-roots-list', (t) => t.includes('Beta renamed'), 'the new name (list_changed)');
    expect(sent('notifications/roots/list_changed')).toHaveLength(1);

    await h.call('setRootSharing', { serverId: id, mode: 'subset', rootIds: [c.id] });
    const after = await toolTextUntil(h, id, 'get-roots-list', (t) => t.includes(c.uri), 'the new subset');
    expect(after).toContain('(1 total)');
    expect(after).not.toContain(a.uri);
    expect(after).not.toContain(b.uri);
  });

  it('leaves out a folder deleted while shared, and sends it again once it is back', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope, { availabilityIntervalMs: 100 });
    const keep = await h.call('addRoot', { path: folder(scope, 'kept') });
    const doomedPath = folder(scope, 'doomed');
    const doomed = await h.call('addRoot', { path: doomedPath });
    const id = h.addServer('everything', referenceServer('everything', ['stdio']));
    await h.call('setRootSharing', { serverId: id, mode: 'all' });
    await h.start(id);
    await toolTextUntil(h, id, 'get-roots-list', (t) => t.includes(doomed.uri) && t.includes(keep.uri), 'both roots');

    fs.rmSync(doomedPath, { recursive: true });
    const without = await toolTextUntil(h, id, 'get-roots-list', (t) => !t.includes(doomed.uri), 'the deleted folder to be left out');
    expect(without).toContain(keep.uri);
    const marked = h.events.findLast((e) => e.name === 'rootsChanged');
    expect(marked?.name === 'rootsChanged' && marked.payload.roots.find((r) => r.id === doomed.id)?.available).toBe(false);

    fs.mkdirSync(doomedPath);
    await toolTextUntil(h, id, 'get-roots-list', (t) => t.includes(doomed.uri), 'the folder to be back');
  });

  it('answers a held roots/list with nothing when the user is slow, then sends the answer via list_changed', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope, { holdMs: 200 });
    const root = await h.call('addRoot', { path: folder(scope, 'later') });
    const id = h.addServer('everything', referenceServer('everything', ['stdio']));
    await h.start(id);
    const question = await h.openConsent(id);
    await waitFor(async () => (await h.call('listRootsAudit', { serverId: id })).some((e) => e.action === 'sent' && e.roots.length === 0), {
      what: 'the held request to be answered empty',
    });
    await h.call('answerQuestion', { id: question.id, answer: { kind: 'roots', share: true } });
    await toolTextUntil(h, id, 'get-roots-list', (t) => t.includes(root.uri), 'the shared root after the late answer');
  });
});

describe.concurrent('the 2026 era', () => {
  it('fulfils an input_required roots round through the same handler, with the same policy', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const shared = await h.call('addRoot', { path: folder(scope, 'modern shared') });
    const hidden = await h.call('addRoot', { path: folder(scope, 'modern hidden') });
    const id = h.addServer('modern', { command: process.execPath, args: [MODERN_FIXTURE] });
    await h.start(id);
    expect(h.fleet.viewById(id).runtime.era).toBe('modern');

    const call = h.tool(id, 'list-roots');
    const question = await h.openConsent(id);
    await h.call('answerQuestion', { id: question.id, answer: { kind: 'roots', share: true, rootIds: [shared.id] } });
    expect(JSON.parse(h.text(await call))).toEqual([{ uri: shared.uri, name: shared.name }]);

    // No notification in this era: the next round simply carries the new list.
    await h.call('setRootSharing', { serverId: id, mode: 'subset', rootIds: [hidden.id] });
    expect(JSON.parse(h.text(await h.tool(id, 'list-roots')))).toEqual([{ uri: hidden.uri, name: hidden.name }]);
    expect(h.wire.some((w) => 'method' in w.message && w.message.method === 'notifications/roots/list_changed')).toBe(false);
  });
});
