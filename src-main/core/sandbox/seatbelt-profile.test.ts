/**
 * The macOS profile as text: sandbox-exec cannot run on this Linux machine, so these check what the
 * profile says, rule by rule, for the same spec the bubblewrap tests use.
 */
import { describe, expect, it } from 'vitest';
import { sandboxedLaunch } from './sandbox-launch';
import { detect, detectSeatbelt } from './sandbox-support';
import { sbplString, seatbeltArgs, seatbeltProfile } from './seatbelt-profile';
import type { SandboxSpec } from './sandbox-spec';

const spec: SandboxSpec = {
  engine: 'seatbelt',
  runner: '/usr/bin/sandbox-exec',
  readOnly: ['/Users/ada/.nvm/versions/node/v20', '/Users/ada/Reference'],
  readWrite: ['/Users/ada/My "Project"', '/Users/ada'],
  scratch: '/Users/ada/Library/Application Support/Patchbay/sandboxes/s1',
  hidden: ['/Users/ada/Library/Application Support/Patchbay'],
  network: 'blocked',
};
const profile = seatbeltProfile(spec);
/** The rules of one operation list, e.g. `(allow file-write* …)`. */
const rules = (text: string, head: string) => text.split('\n').filter((line) => line.startsWith(`(${head} `));

describe('seatbeltProfile', () => {
  it('denies by default and lets its own processes run, fork and signal only each other', () => {
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow process-exec process-fork)');
    expect(profile).toContain('(allow signal (target same-sandbox))');
    expect(profile).not.toMatch(/\(allow default\)|\(allow file-read\*\)\n|\(allow file-write\*\)\n/);
  });

  it('reads the system, the install location and the shared folders, with the data directory cut out', () => {
    const reads = rules(profile, 'allow file-read*').join('\n');
    for (const dir of ['/usr', '/System', '/Library', '/opt', '/private/etc']) expect(reads).toContain(`(subpath "${dir}")`);
    expect(reads).toContain('(subpath "/Users/ada/.nvm/versions/node/v20")');
    expect(reads).toContain('(subpath "/Users/ada/Reference")');
    expect(reads).toContain(
      '(require-all (subpath "/Users/ada") (require-not (subpath "/Users/ada/Library/Application Support/Patchbay")))',
    );
    // Getting to a shared folder means reading its parents' metadata, not their contents.
    expect(profile).toContain('(allow file-read-metadata (literal "/Users")');
    expect(profile).not.toContain('(subpath "/Users")');
  });

  it('writes only the read-write shares (not what is read-only inside them) and its scratch folder', () => {
    const writes = rules(profile, 'allow file-write*').join('\n');
    expect(writes).toContain('(subpath "/Users/ada/My \\"Project\\"")');
    expect(writes).toContain(
      '(require-all (subpath "/Users/ada") (require-not (subpath "/Users/ada/Library/Application Support/Patchbay")) (require-not (subpath "/Users/ada/.nvm/versions/node/v20")) (require-not (subpath "/Users/ada/Reference")))',
    );
    expect(profile).toContain('(allow file-read* file-write* (subpath "/Users/ada/Library/Application Support/Patchbay/sandboxes/s1"))');
    expect(writes).not.toContain('(subpath "/usr")');
  });

  it('allows no network when blocked, all of it when allowed, and only the proxy port for Only these hosts', () => {
    expect(profile).not.toMatch(/\(allow network/);
    expect(profile).not.toContain('mDNSResponder');
    const open = seatbeltProfile({ ...spec, network: 'allowed' });
    expect(open).toContain('(allow network*)');
    expect(open).toContain('(global-name "com.apple.mDNSResponder")');
    const hosts = seatbeltProfile({ ...spec, network: 'blocked', proxy: { port: 51234 } });
    expect(rules(hosts, 'allow network-outbound')).toEqual(['(allow network-outbound (remote ip "localhost:51234"))']);
    expect(hosts).not.toContain('(allow network*)');
  });

  it('escapes quotes, backslashes and line breaks in paths', () => {
    expect(sbplString('/a "b"\\c\nd')).toBe('"/a \\"b\\"\\\\c\\nd"');
    expect(seatbeltProfile({ ...spec, readWrite: ['/Users/ada/line\nbreak'] })).toContain('(subpath "/Users/ada/line\\nbreak")');
  });
});

describe('seatbeltArgs', () => {
  it('runs the command through env with HOME and TMPDIR in its scratch folder, in its folder when that is inside', () => {
    const { args, cwd } = seatbeltArgs(
      { ...spec, proxy: { port: 51234 } },
      { file: '/usr/local/bin/node', args: ['server.js'], cwd: '/elsewhere' },
    );
    expect(args[0]).toBe('-p');
    expect(args[1]).toBe(seatbeltProfile({ ...spec, proxy: { port: 51234 } }));
    expect(args.slice(2)).toEqual(
      expect.arrayContaining([
        '/usr/bin/env',
        `HOME=${spec.scratch}`,
        `TMPDIR=${spec.scratch}/tmp`,
        'HTTPS_PROXY=http://127.0.0.1:51234',
        '/usr/local/bin/node',
        'server.js',
      ]),
    );
    expect(args.slice(-2)).toEqual(['/usr/local/bin/node', 'server.js']);
    expect(cwd).toBe(spec.scratch);
    expect(seatbeltArgs(spec, { file: 'x', args: [], cwd: '/Users/ada/Reference/docs' }).cwd).toBe('/Users/ada/Reference/docs');
  });

  it('is what a seatbelt launch spawns', () => {
    const launch = sandboxedLaunch({ ...spec, readOnly: [], readWrite: [] }, '/usr/bin/true', [], undefined);
    expect(launch.file).toBe('/usr/bin/sandbox-exec');
    expect(launch.args[0]).toBe('-p');
    expect(launch.cwd).toBe(spec.scratch);
  });
});

describe('sandbox support on macOS', () => {
  it('chooses sandbox-exec on darwin, and says plainly when it cannot run', () => {
    // This machine has no sandbox-exec: the trial fails, and the verdict says so without pretending.
    const verdict = detect('darwin', '');
    expect(verdict.supported).toBe(false);
    expect(verdict.supported === false && verdict.reason).toMatch(/^macOS's sandbox \(sandbox-exec\) cannot run here \(.+\): servers run/);
    // A program that runs the trial profile passes (the real one is only on a Mac).
    expect(detectSeatbelt('/bin/true')).toEqual({ supported: true, runner: '/bin/true', engine: 'seatbelt' });
  });
});
