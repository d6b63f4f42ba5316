import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_PENDING_OPEN_REQUESTS, type OpenRequest } from '@contract';
import { startTestHost } from '../../test-support/test-host';
import { appLogPath } from '../logs/app-log';
import { fixture } from '../../test-support/fixtures';
import { waitFor } from '../servers/wait';
import type { UpdaterPort } from './app-area';

const request = (id: string): OpenRequest => ({
  id,
  receivedAt: '2026-01-01T00:00:00.000Z',
  source: 'second-instance',
  kind: 'install-bundle',
  path: `/tmp/${id}.mcpb`,
});

describe('the app area of the host', () => {
  it('keeps open requests in the snapshot until dismissed, and tells the renderer both ways', async () => {
    const { host, api, events } = startTestHost();
    host.app.receiveOpenRequest(request('a'));
    host.app.receiveOpenRequest(request('b'));
    expect((await api.getSnapshot()).app.openRequests.map((r) => r.id)).toEqual(['a', 'b']);
    expect(events.filter((e) => e.name === 'openRequestReceived').map((e) => e.payload)).toEqual([request('a'), request('b')]);

    await api.dismissOpenRequest({ id: 'a' });
    await api.dismissOpenRequest({ id: 'a' }); // twice (two windows): harmless
    expect((await api.getSnapshot()).app.openRequests.map((r) => r.id)).toEqual(['b']);
    expect(events.filter((e) => e.name === 'openRequestDismissed')).toEqual([{ name: 'openRequestDismissed', payload: { id: 'a' } }]);
  });

  it('keeps at most the newest requests waiting: a flood of links cannot grow memory', async () => {
    const { host, api, events } = startTestHost();
    for (let i = 0; i < MAX_PENDING_OPEN_REQUESTS + 5; i++) host.app.receiveOpenRequest(request(`r${i}`));
    const pending = (await api.getSnapshot()).app.openRequests;
    expect(pending).toHaveLength(MAX_PENDING_OPEN_REQUESTS);
    expect(pending[0].id).toBe('r5');
    expect(events.filter((e) => e.name === 'openRequestDismissed')).toHaveLength(5);
  });

  it('web mode has no updater: the update methods answer with why, and change nothing', async () => {
    const { api } = startTestHost();
    const state = { status: 'unsupported', reason: 'Updates are part of the desktop app; web mode runs the copy you started.' };
    expect((await api.getSnapshot()).app.update).toEqual(state);
    expect(await api.checkForUpdates()).toEqual(state);
    expect(await api.installUpdate({ when: 'now' })).toEqual(state);
  });

  it('passes the user’s update requests to the attached updater; installs only what is ready', async () => {
    const { host, api, events } = startTestHost({ mode: 'electron' });
    const asked: string[] = [];
    const updater: UpdaterPort = { check: () => asked.push('check'), install: (when) => asked.push(`install ${when}`) };
    host.app.attachUpdater(updater);
    host.app.setUpdateState({ status: 'idle' });
    expect(await api.checkForUpdates()).toEqual({ status: 'idle' });
    expect(await api.installUpdate({ when: 'now' })).toEqual({ status: 'idle' });
    host.app.setUpdateState({ status: 'ready', version: '9.9.9', installOnQuit: false });
    await api.installUpdate({ when: 'on-quit' });
    expect(asked).toEqual(['check', 'install on-quit']);
    expect(events.filter((e) => e.name === 'updateStateChanged').map((e) => e.payload.status)).toEqual(['idle', 'ready']);
    await expect(api.installUpdate({ when: 'later' as 'now' })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('tells about a window crash until dismissed', async () => {
    const { host, api, events } = startTestHost({ mode: 'electron' });
    const recovery = { at: '2026-01-01T00:00:00.000Z', reason: 'crashed', exitCode: 133 };
    host.app.recordWindowCrash(recovery);
    expect((await api.getSnapshot()).app.windowRecovery).toEqual(recovery);
    await api.dismissWindowRecovery();
    expect((await api.getSnapshot()).app.windowRecovery).toBeNull();
    expect(events.filter((e) => e.name === 'windowRecoveryChanged').map((e) => e.payload)).toEqual([recovery, null]);
  });
});

describe('the app log file', () => {
  it('records start, every server’s Host stream by name, the app’s own events, redacted; diagnostics carry its path and tail', async () => {
    const { host, api, dataDir } = startTestHost();
    const file = appLogPath(dataDir);
    expect((await api.getSnapshot()).info.logFile).toBe(file);

    const crashing = fixture('exits-after-ready.mjs');
    const { config } = await api.addServer({ name: 'Flaky DB', command: crashing.command, args: crashing.args, autoRestart: false });
    host.app.receiveOpenRequest({
      ...request('x'),
      kind: 'rejected',
      input: 'patchbay://evil',
      reason: 'Patchbay links can only install a server',
    });
    host.app.log.write('warning', 'updater', 'feed answered with x-api-key: sk-ant-api03-abcdefghijklmnop');
    host.app.log.error('app', 'Uncaught exception', new Error('boom'));

    const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
    await waitFor(() => /\[server "Flaky DB" [\w-]+\] crash: Crashed \(exit code 7\)/.test(read()), {
      what: 'the crash in the app log',
      timeoutMs: 30_000,
    });
    const text = read();
    expect(text).toMatch(/^\S+Z INFO +\[app\] Patchbay 0\.0\.0-test started \(web mode/);
    expect(text).toMatch(/INFO +\[server "Flaky DB" [\w-]+\] spawn: Spawned pid \d+: /);
    expect(text).toContain(
      'WARNING   [open] Asked (second-instance) to open patchbay://evil: refused, Patchbay links can only install a server',
    );
    expect(text).toContain('x-api-key: [REDACTED]');
    expect(text).not.toContain('sk-ant-api03');
    expect(text).toMatch(/ERROR +\[app\] Uncaught exception: Error: boom\n +at /);

    const diagnostics = await api.getServerDiagnostics({ id: config.id });
    expect(diagnostics.text).toContain(`App log: ${file} (last `);
    expect(diagnostics.text).toMatch(/\n {2}\S+Z ERROR +\[server "Flaky DB" [\w-]+\] crash: Crashed/);

    await host.dispose();
    expect(read().trimEnd().split('\n').at(-1)).toMatch(/INFO +\[app\] Stopped: every server stopped/);
  });
});
