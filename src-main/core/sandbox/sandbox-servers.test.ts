/**
 * Sandboxed servers against real processes (bubblewrap): the same fixture server runs sandboxed and
 * unsandboxed side by side, so each test shows that the sandbox — nothing else — stopped the access.
 * Skipped, with the reason printed, where the sandbox cannot run (no bubblewrap, no user namespaces).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, referenceServer, testScope } from '../../test-support/fixtures';
import { rootsHarness } from '../roots/test-support/roots-harness';
import { sandboxSupport } from './sandbox-support';
import { waitFor } from '../servers/wait';
import { BLOCKED, folder, probes, processesWith, say } from './test-support/sandbox-probes';

const support = sandboxSupport();
if (!support.supported) console.log(`[sandbox tests skipped] ${support.reason}`);

describe.skipIf(!support.supported).concurrent('a sandboxed server', () => {
  it('reads and writes the shared folder, but not an unshared one (which the unsandboxed twin can)', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const shared = folder(scope, 'shared folder', { 'note.txt': 'shared\n' });
    const other = folder(scope, 'private', { 'secret.txt': 'not shared\n' });
    const { boxed, open } = await probes(h, shared);

    for (const id of [boxed, open]) {
      expect(await say(h, id, 'read', { path: path.join(shared, 'note.txt') })).toBe('ok: shared\n');
      expect(await say(h, id, 'write', { path: path.join(shared, `${id}.txt`), text: 'x' })).toMatch(/^ok: wrote/);
    }
    expect(await say(h, open, 'read', { path: path.join(other, 'secret.txt') })).toBe('ok: not shared\n');
    expect(await say(h, boxed, 'read', { path: path.join(other, 'secret.txt') })).toMatch(/^error: ENOENT/);
    expect(await say(h, open, 'write', { path: path.join(other, 'planted.txt'), text: 'x' })).toMatch(/^ok: wrote/);
    expect(await say(h, boxed, 'write', { path: path.join(other, 'planted-boxed.txt'), text: 'x' })).toMatch(/^error: /);
    expect(fs.existsSync(path.join(other, 'planted-boxed.txt'))).toBe(false);
    // Its own code is readable, not writable; its HOME is a scratch folder of its own.
    expect(await say(h, boxed, 'write', { path: fixture('sandbox-probe.mjs').args![0], text: 'x' })).toMatch(/^error: EROFS/);
    expect(h.sandboxLog.find((line) => line.serverId === boxed)?.text).toContain(`reads and writes ${shared}`);
    // What it ran into is in its Host log, with the path; the unsandboxed twin's failures are its own business.
    const denied = (id: string) => h.sandboxLog.filter((line) => line.serverId === id && line.text.startsWith('Sandbox: denied'));
    await waitFor(() => denied(boxed).length >= 3, { timeoutMs: 5000, what: `denials in ${JSON.stringify(h.sandboxLog)}` });
    expect(denied(boxed).map((line) => line.text)).toEqual([
      `Sandbox: denied access to ${path.join(other, 'secret.txt')} (outside the sandbox)`,
      `Sandbox: denied access to ${path.join(other, 'planted-boxed.txt')} (outside the sandbox)`,
      `Sandbox: denied a write to ${fixture('sandbox-probe.mjs').args![0]} (mounted read-only)`,
    ]);
    expect(denied(open)).toEqual([]);
  });

  it('fails a write outside the shared folders loudly (EROFS, named in the Host log) where the unsandboxed twin writes', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const shared = folder(scope, 'shared');
    const { boxed, open } = await probes(h, shared);
    // The shared folder's parent exists inside (as the mount point's path), but is the sandbox's root: read-only.
    const beside = (name: string) => path.join(path.dirname(shared), name);
    expect(await say(h, open, 'write', { path: beside('open.txt'), text: 'x' })).toMatch(/^ok: wrote/);
    expect(fs.existsSync(beside('open.txt'))).toBe(true);
    expect(await say(h, boxed, 'write', { path: beside('boxed.txt'), text: 'x' })).toMatch(/^error: EROFS/);
    expect(await say(h, boxed, 'write', { path: '/lost.txt', text: 'x' })).toMatch(/^error: EROFS/);
    expect(fs.existsSync(beside('boxed.txt'))).toBe(false);
    const denied = () =>
      h.sandboxLog.filter((line) => line.serverId === boxed && line.text.startsWith('Sandbox: denied')).map((l) => l.text);
    await waitFor(() => denied().length >= 2, { timeoutMs: 5000, what: `denials in ${JSON.stringify(h.sandboxLog)}` });
    expect(denied()).toEqual([
      `Sandbox: denied a write to ${beside('boxed.txt')} (outside the shared folders: nothing was written)`,
      'Sandbox: denied a write to /lost.txt (outside the shared folders: nothing was written)',
    ]);
  });

  it('takes a child that left its process group down with it, and cannot see host processes in /proc', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const { boxed, open } = await probes(h, folder(scope, 'work'));
    const marker = (id: string) => `patchbay-escape-${id}`;
    for (const id of [boxed, open]) expect(await say(h, id, 'spawn-child', { marker: marker(id) })).toMatch(/^ok: child \d+/);
    expect(processesWith(marker(boxed))).toHaveLength(1);
    expect(processesWith(marker(open))).toHaveLength(1);

    expect(await say(h, open, 'read-proc', { pid: process.pid })).toMatch(/^ok: .*node/);
    expect(await say(h, boxed, 'read-proc', { pid: process.pid })).toMatch(/^error: ENOENT/);

    await Promise.all([h.fleet.stop(boxed), h.fleet.stop(open)]);
    // Sandboxed, its PID namespace ends with it; unsandboxed, the sweep of its lineage finds the escapee.
    await waitFor(() => processesWith(marker(boxed)).length === 0, { timeoutMs: 5000, what: 'the sandboxed escapee to be gone' });
    await waitFor(() => processesWith(marker(open)).length === 0, { timeoutMs: 5000, what: 'the unsandboxed escapee to be gone' });
  });

  it('leaves no setsid daemon of an unsandboxed server behind once it is removed', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const { open } = await probes(h, folder(scope, 'work'));
    const marker = `patchbay-daemon-${open}`;
    expect(await say(h, open, 'spawn-child', { marker })).toMatch(/^ok: child \d+/);
    const [daemon] = processesWith(marker);
    expect(daemon).toBeDefined();
    // It left the server's process group and session: the group signals of a shutdown miss it.
    const stat = fs.readFileSync(`/proc/${daemon}/stat`, 'utf8').split(') ')[1].split(' ');
    expect(Number(stat[2])).not.toBe(h.fleet.connection(open)!.pid);
    await h.fleet.forget(open); // what Remove does before deleting the configuration
    await waitFor(() => processesWith(marker).length === 0, { timeoutMs: 5000, what: 'the daemon to be gone' });
  });

  it('restarts inside the new boundary when the folders shared with it change', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const first = folder(scope, 'first');
    const second = folder(scope, 'second', { 'later.txt': 'shared later\n' });
    const { boxed } = await probes(h, first);
    const pid = h.fleet.connection(boxed)!.pid;
    expect(await say(h, boxed, 'read', { path: path.join(second, 'later.txt') })).toMatch(/^error: ENOENT/);

    const added = await h.call('addRoot', { path: second });
    const firstId = h.events.flatMap((e) => (e.name === 'rootsChanged' ? e.payload.roots : [])).find((r) => r.path === first)!.id;
    await h.call('setRootSharing', { serverId: boxed, mode: 'subset', rootIds: [firstId, added.id] });

    await waitFor(() => h.fleet.connection(boxed)?.state.status === 'ready' && h.fleet.connection(boxed)?.pid !== pid, {
      timeoutMs: 20_000,
      what: 'the sandboxed server to be restarted',
    });
    expect(await say(h, boxed, 'read', { path: path.join(second, 'later.txt') })).toBe('ok: shared later\n');
    const audit = await h.call('listRootsAudit', { serverId: boxed });
    expect(audit.some((entry) => entry.detail.startsWith('Restarted so its sandbox'))).toBe(true);
  });

  it('names the registry npx could not reach when a launch fails with network blocked', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    // A package no cache holds, so npx must ask the registry; no retries, so it fails at once.
    const id = h.addServer(
      'from-npm',
      { command: 'npx', args: ['-y', 'patchbay-sandbox-no-such-package'], env: { npm_config_fetch_retries: '0' } },
      BLOCKED,
    );
    await h.call('setRootSharing', { serverId: id, mode: 'none', rootIds: [] });
    await h.fleet.start(id);
    await waitFor(() => ['error', 'crashed'].includes(h.fleet.viewById(id).runtime.status), {
      timeoutMs: 30_000,
      what: 'npx to fail in the sandbox',
    });
    const note = 'npx needs the npm registry (registry.npmjs.org) to start: allow that host or run with network allowed.';
    expect(h.fleet.viewById(id).runtime.reason).toContain(note);
    expect(h.fleet.viewById(id).runtime.sandbox?.registryNote).toBe(note);
    expect(h.sandboxLog.some((line) => line.serverId === id && line.text === `Sandbox: ${note}`)).toBe(true);
  });

  it('is diagnosed the way it runs: inside its sandbox, where the same launch that works unsandboxed fails, and says why', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const other = folder(scope, 'config', { 'settings.json': '{}' });
    const file = path.join(other, 'settings.json');
    const probe = fixture('sandbox-probe.mjs').args![0];
    // Reads a config file outside anything shared, then serves as the probe.
    const spec = {
      command: process.execPath,
      args: ['-e', `require('fs').readFileSync(${JSON.stringify(file)}); import(${JSON.stringify(probe)})`],
    };
    const boxed = h.addServer('boxed', spec, BLOCKED);
    const open = h.addServer('open', spec);
    for (const id of [boxed, open]) await h.call('setRootSharing', { serverId: id, mode: 'none', rootIds: [] });

    const plain = await h.fleet.diagnose(open, () => {});
    expect(plain.ok).toBe(true);
    expect(plain.steps.map((step) => step.id)).not.toContain('sandbox');

    const inside = await h.fleet.diagnose(boxed, () => {});
    expect(inside.ok).toBe(false);
    expect(inside.steps.find((step) => step.id === 'sandbox')).toMatchObject({
      status: 'ok',
      title: 'Build its sandbox',
      detail: 'Sandboxed: sees no shared folders; network blocked. The steps below run inside it, as the server will.',
    });
    expect(inside.steps.find((step) => step.id === 'initialize')).toMatchObject({ status: 'failed' });
    expect(inside.steps.find((step) => step.id === 'initialize')?.detail).toContain(`It could not read ${file}: outside the sandbox.`);
    // What the dialog offers Share folder and Run unsandboxed for.
    expect(inside.sandboxPaths).toEqual({ blockedPath: file });
    expect(plain.sandboxPaths).toBeUndefined();
  });

  it('names the path outside the sandbox that a failed launch tripped over', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const other = folder(scope, 'config', { 'settings.json': '{}' });
    const file = path.join(other, 'settings.json');
    const id = h.addServer(
      'reader',
      { command: process.execPath, args: ['-e', `require('fs').readFileSync(${JSON.stringify(file)})`] },
      BLOCKED,
    );
    await h.call('setRootSharing', { serverId: id, mode: 'none', rootIds: [] });
    const view = await h.fleet.start(id);
    expect(view.runtime.status).not.toBe('ready');
    await waitFor(() => h.fleet.viewById(id).runtime.sandbox?.blockedPath !== undefined, {
      timeoutMs: 10_000,
      what: `the blocked path in ${JSON.stringify(h.fleet.viewById(id).runtime)}`,
    });
    expect(h.fleet.viewById(id).runtime.sandbox).toMatchObject({
      blockedPath: file,
      summary: 'Sandboxed: sees no shared folders; network blocked',
    });
  });
});

describe.skipIf(!support.supported).concurrent('reference servers in a sandbox', () => {
  it('server-filesystem works in a shared folder with a space in its name, and nowhere else', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const shared = folder(scope, "my 'project' folder", { 'note.txt': 'inside\n' });
    const other = folder(scope, 'private', { 'secret.txt': 'outside\n' });
    const root = await h.call('addRoot', { path: shared });
    const id = h.addServer('files', referenceServer('filesystem'), BLOCKED);
    await h.call('setRootSharing', { serverId: id, mode: 'subset', rootIds: [root.id] });
    await h.start(id);

    await waitFor(async () => (await say(h, id, 'list_allowed_directories', {})).includes(shared), {
      timeoutMs: 20_000,
      what: 'the shared folder to be allowed',
    });
    expect(await say(h, id, 'read_text_file', { path: path.join(shared, 'note.txt') })).toBe('inside\n');
    await h.tool(id, 'write_file', { path: path.join(shared, 'written.txt'), content: 'by the server' });
    expect(fs.readFileSync(path.join(shared, 'written.txt'), 'utf8')).toBe('by the server');
    expect((await h.tool(id, 'read_text_file', { path: path.join(other, 'secret.txt') })).isError).toBe(true);
  });

  it('names the folder argument it shows only read-only, and a path in its environment it hides; unsandboxed, the same folder is writable', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const given = folder(scope, 'given', { 'note.txt': 'given as an argument\n' });
    const hidden = path.join(folder(scope, 'memory'), 'memory.jsonl');
    const spec = { ...referenceServer('filesystem', [given]), env: { MEMORY_FILE_PATH: hidden } };
    const boxed = h.addServer('files-boxed', spec, BLOCKED);
    const open = h.addServer('files-open', spec);
    await Promise.all([h.start(boxed), h.start(open)]);

    const seen = h.fleet.viewById(boxed).runtime.sandbox;
    expect(seen?.pathNotes).toEqual([
      { path: given, from: 'argument 2', kind: 'read-only', folder: given },
      { path: hidden, from: 'MEMORY_FILE_PATH', kind: 'hidden', folder: path.dirname(hidden) },
    ]);
    // Every mount, truthfully: the folder it was given is there, read-only, though no folder is shared.
    expect(seen?.mounts).toEqual(
      expect.arrayContaining([{ path: given, access: 'read-only', what: 'its own code, or a folder its launch names' }]),
    );
    expect(seen?.mounts?.filter((m) => m.access === 'read-write').map((m) => m.what)).toEqual(['its scratch folder (HOME, TMPDIR)']);
    expect(h.sandboxLog.filter((l) => l.serverId === boxed).map((l) => l.text)).toEqual(
      expect.arrayContaining([
        `Sandbox: its argument 2 names ${given}, which the sandbox shows only read-only: share ${given} with it, or run it unsandboxed`,
        `Sandbox: its MEMORY_FILE_PATH names ${hidden}, which the sandbox hides from it: share ${path.dirname(hidden)} with it, or run it unsandboxed`,
      ]),
    );
    expect(h.fleet.viewById(open).runtime.sandbox).toBeUndefined();
    // Diagnose names them too (with Share folder and Run unsandboxed in its dialog).
    await h.fleet.stop(boxed);
    expect((await h.fleet.diagnose(boxed, () => {})).sandboxPaths?.pathNotes?.map((note) => note.path)).toEqual([given, hidden]);
    await h.start(boxed);
    // The sandbox is what stops the write: the unsandboxed twin writes the same folder.
    expect((await h.tool(boxed, 'write_file', { path: path.join(given, 'boxed.txt'), content: 'x' })).isError).toBe(true);
    await h.tool(open, 'write_file', { path: path.join(given, 'open.txt'), content: 'x' });
    expect([fs.existsSync(path.join(given, 'boxed.txt')), fs.existsSync(path.join(given, 'open.txt'))]).toEqual([false, true]);
  });

  it('server-filesystem reads a folder shared read-only but cannot write it; unsandboxed, the same write succeeds', async ({
    onTestFinished,
  }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const shared = folder(scope, 'read only', { 'note.txt': 'look, do not touch\n' });
    const root = await h.call('addRoot', { path: shared });
    expect((await h.call('setRootReadOnly', { id: root.id, readOnly: true })).readOnly).toBe(true);
    const boxed = h.addServer('files-boxed', referenceServer('filesystem'), BLOCKED);
    const open = h.addServer('files-open', referenceServer('filesystem'));
    for (const id of [boxed, open]) await h.call('setRootSharing', { serverId: id, mode: 'subset', rootIds: [root.id] });
    await Promise.all([h.start(boxed), h.start(open)]);
    for (const id of [boxed, open])
      await waitFor(async () => (await say(h, id, 'list_allowed_directories', {})).includes(shared), {
        timeoutMs: 20_000,
        what: 'the shared folder to be allowed',
      });

    for (const id of [boxed, open])
      expect(await say(h, id, 'read_text_file', { path: path.join(shared, 'note.txt') })).toBe('look, do not touch\n');
    const refused = await h.tool(boxed, 'write_file', { path: path.join(shared, 'boxed.txt'), content: 'x' });
    expect(refused.isError).toBe(true);
    expect(h.text(refused)).toMatch(/EROFS|read-only/i);
    expect(fs.existsSync(path.join(shared, 'boxed.txt'))).toBe(false);
    // Read-only binds only the sandbox: MCP cannot tell a server a root is read-only.
    expect((await h.tool(open, 'write_file', { path: path.join(shared, 'open.txt'), content: 'y' })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(shared, 'open.txt'), 'utf8')).toBe('y');
    expect(h.fleet.viewById(boxed).runtime.sandbox).toMatchObject({
      summary: 'Sandboxed: sees 1 shared folder, read-only; network blocked',
      readOnlyFolders: [shared],
    });
    expect(h.sandboxLog.find((line) => line.serverId === boxed)?.text).toContain(`only reads ${shared}`);

    // Read-write again: the sandboxed server restarts, and now it can write there.
    const pid = h.fleet.connection(boxed)!.pid;
    await h.call('setRootReadOnly', { id: root.id, readOnly: false });
    await waitFor(() => h.fleet.connection(boxed)?.state.status === 'ready' && h.fleet.connection(boxed)?.pid !== pid, {
      timeoutMs: 20_000,
      what: 'the sandboxed server to be restarted read-write',
    });
    await waitFor(async () => (await say(h, boxed, 'list_allowed_directories', {})).includes(shared), {
      timeoutMs: 20_000,
      what: 'the shared folder to be allowed again',
    });
    expect((await h.tool(boxed, 'write_file', { path: path.join(shared, 'boxed.txt'), content: 'z' })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(shared, 'boxed.txt'), 'utf8')).toBe('z');
  });

  it('server-everything starts and answers sandboxed', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const h = rootsHarness(scope);
    const id = h.addServer('everything', referenceServer('everything'), BLOCKED);
    await h.call('setRootSharing', { serverId: id, mode: 'none', rootIds: [] });
    await h.start(id);
    expect(await say(h, id, 'echo', { message: 'from inside' })).toContain('from inside');
    expect(h.fleet.viewById(id).runtime.sandbox?.summary).toBe('Sandboxed: sees no shared folders; network blocked');
  });
});
