import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { testScope } from '../../../test-support/fixtures';
import { readGroupNice, setGroupNice } from './start-priority';

const autogroup = readGroupNice(process.pid) !== undefined;

describe('setGroupNice', () => {
  it('changes nothing where the platform has no scheduling groups of its own', () => {
    expect(setGroupNice(process.pid, 5, 'darwin')).toBe(false);
    expect(setGroupNice(process.pid, 5, 'win32')).toBe(false);
  });

  it.skipIf(!autogroup)('lowers a session leader’s group and raises it back to normal without privileges', async () => {
    const scope = testScope();
    // A session of its own, as every server runs (detached: setsid).
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    scope.track(child.pid);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    scope.defer(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(setGroupNice(child.pid!, 19)).toBe(true);
    expect(readGroupNice(child.pid!)).toBe(19);
    expect(setGroupNice(child.pid!, 0)).toBe(true);
    expect(readGroupNice(child.pid!)).toBe(0);
  });

  it.skipIf(!autogroup)('reports a process that is gone', () => {
    expect(setGroupNice(2 ** 22 + 12345, 19)).toBe(false);
  });
});
