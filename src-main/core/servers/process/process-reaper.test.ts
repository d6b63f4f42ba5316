import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InMemoryLiveProcessStore, reapLeftovers, reapRecordedLeftovers, type LiveProcessRecord } from './process-reaper';
import { isGroupAlive, isProcessAlive, readProcessStartTime, signalGroup } from './process-tree';
import { ServerConnection } from '../connection/server-connection';
import { fixture, testScope, type TestScope } from '../../../test-support/fixtures';
import { waitFor } from '../wait';

const fastReap = { termGraceMs: 200, killWaitMs: 3000 };

/**
 * Starts a process group the way a previous (crashed) host would have left it: detached, and not
 * managed by anything of ours. Returns its record and the pid it reports on stderr, if any.
 */
async function leftover(
  scope: TestScope,
  script: string,
): Promise<{ child: ChildProcess; record: LiveProcessRecord; reported: () => number }> {
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = child.pid!;
  scope.track(pid);
  scope.defer(() => signalGroup(pid, 'SIGKILL'));
  const record = { serverId: 's', pid, pgid: pid, startTime: readProcessStartTime(pid) ?? null, command: 'node', recordedAt: Date.now() };
  const reported = () => Number(/pid (\d+)/.exec(stderr)?.[1] ?? 0);
  return { child, record, reported };
}

const STUBBORN =
  "process.on('SIGTERM', () => {});" +
  "const g = require('child_process').spawn(process.execPath, ['-e', \"process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)\"], { stdio: 'ignore' });" +
  "console.error('pid ' + g.pid); setInterval(() => {}, 1000);";

describe.concurrent('reapLeftovers', () => {
  it('kills a leftover group whose leader still matches the recorded start time, grandchildren included', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const { record, reported } = await leftover(scope, STUBBORN);
    const grandchild = await waitFor(reported, { what: 'the grandchild pid' });
    scope.track(grandchild);
    expect(await reapLeftovers([record], fastReap)).toEqual([{ record, outcome: 'killed' }]);
    expect(isGroupAlive(record.pgid)).toBe(false);
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it('kills what is left of a group whose leader already exited', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const { record, reported, child } = await leftover(scope, `${STUBBORN.replace('setInterval(() => {}, 1000);', '')} process.exit(0);`);
    const grandchild = await waitFor(reported, { what: 'the grandchild pid' });
    scope.track(grandchild);
    await waitFor(() => child.exitCode !== null, { what: 'the leader to exit' });
    expect(isProcessAlive(grandchild)).toBe(true);
    expect(await reapLeftovers([record], fastReap)).toEqual([{ record, outcome: 'orphans-killed' }]);
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it('never touches a process whose pid was reused (start time differs) or cannot be verified', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const { record } = await leftover(scope, 'setInterval(() => {}, 1000)');
    const reused = { ...record, startTime: '1' };
    const unknown = { ...record, startTime: null };
    expect(await reapLeftovers([reused, unknown], fastReap)).toEqual([
      { record: reused, outcome: 'pid-reused' },
      { record: unknown, outcome: 'unverifiable' },
    ]);
    expect(isProcessAlive(record.pid)).toBe(true);
  });

  it('reports a group that is already gone', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const { record, child } = await leftover(scope, 'process.exit(0)');
    await waitFor(() => child.exitCode !== null, { what: 'exit' });
    expect(await reapLeftovers([record], fastReap)).toEqual([{ record, outcome: 'gone' }]);
  });

  it('reaps the groups a connection recorded when the host died without stopping it', async ({ onTestFinished }) => {
    const scope = testScope(onTestFinished);
    const store = new InMemoryLiveProcessStore();
    const conn = new ServerConnection({
      config: { id: 'stubborn', name: 'stubborn', ...fixture('ignores-sigterm.mjs') },
      loginShellPath: async () => [],
      processStore: store,
    });
    scope.defer(() => conn.stop());
    await conn.start();
    const [record] = store.list();
    expect(record).toMatchObject({ serverId: 'stubborn', pid: conn.pid, pgid: conn.pid, startTime: readProcessStartTime(conn.pid!) });
    scope.track(record.pid);

    // "Next launch": only the persisted records are known.
    const results = await reapRecordedLeftovers(store, fastReap);
    expect(results.map((r) => r.outcome)).toEqual(['killed']);
    expect(store.list()).toEqual([]);
    expect(isGroupAlive(record.pgid)).toBe(false);
  });
});
