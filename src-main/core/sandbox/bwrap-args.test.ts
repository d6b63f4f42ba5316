import { describe, expect, it } from 'vitest';
import { bwrapArgs, type PathKind } from './bwrap-args';
import { hostAllowed } from './host-filter-proxy';
import { RELAY_SCRIPT } from './network-relay';
import { findBlockedPath, findDenials } from './sandbox-denial';
import type { SandboxSpec } from './sandbox-spec';

const spec: SandboxSpec = {
  engine: 'bubblewrap',
  runner: '/usr/bin/bwrap',
  readOnly: ['/home/ada/.nvm/versions/node/v20'],
  readWrite: ['/home/ada/My Project', '/home/ada'],
  scratch: '/home/ada/.config/Patchbay/sandboxes/s1',
  hidden: ['/home/ada/.config/Patchbay', '/srv/unrelated'],
  network: 'blocked',
};
/** A merged-/usr Debian: /bin, /lib… are symlinks into /usr. */
const DEBIAN: Record<string, PathKind> = {
  '/usr': { kind: 'dir' },
  '/etc': { kind: 'dir' },
  '/bin': { kind: 'symlink', target: 'usr/bin' },
};
const debian = (p: string): PathKind => DEBIAN[p] ?? { kind: 'missing' };

/** The mount targets in command-line order. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--ro-bind' || args[i] === '--bind') out.push(`${args[i]} ${args[i + 2]}`);
    if (args[i] === '--tmpfs') out.push(`--tmpfs ${args[i + 1]}`);
  }
  return out;
}

describe('bwrapArgs', () => {
  const args = bwrapArgs(spec, { file: '/usr/bin/node', args: ['server.js', 'a b'], cwd: '/srv/elsewhere' }, debian);

  it('dies with Patchbay, owns a PID namespace and, whatever the network, a network namespace of its own', () => {
    expect(args).toEqual(expect.arrayContaining(['--die-with-parent', '--unshare-pid', '--unshare-net']));
    expect(args).not.toContain('--new-session');
    expect(bwrapArgs({ ...spec, network: 'allowed' }, { file: 'x', args: [], cwd: '/' }, debian)).toContain('--unshare-net');
  });

  it('with a proxy, starts the relay on the host runtime first, mounting that runtime only where nothing else does', () => {
    const relayed = (folder: string) =>
      bwrapArgs(
        {
          ...spec,
          network: 'allowed',
          proxy: {
            port: 3128,
            relay: {
              socket: `${spec.scratch}/proxy.sock`,
              runtime: { program: `${folder}/patchbay`, folder, env: { ELECTRON_RUN_AS_NODE: '1' } },
            },
          },
        },
        { file: '/usr/bin/node', args: ['server.js'], cwd: '/' },
        debian,
      );
    const own = relayed('/home/me/Apps/Patchbay');
    expect(own.join(' ')).toContain('--ro-bind /home/me/Apps/Patchbay /home/me/Apps/Patchbay');
    expect(own.join(' ')).toContain('--setenv HTTPS_PROXY http://127.0.0.1:3128 --setenv ALL_PROXY http://127.0.0.1:3128');
    const command = own.slice(own.indexOf('--') + 1);
    expect(command.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(command[2]).toContain('ELECTRON_RUN_AS_NODE=1 "$0"');
    expect(command.slice(3)).toEqual([
      '/home/me/Apps/Patchbay/patchbay',
      RELAY_SCRIPT,
      '3128',
      `${spec.scratch}/proxy.sock`,
      '/usr/bin/node',
      'server.js',
    ]);
    expect(relayed('/usr/bin').join(' ')).not.toContain('--ro-bind /usr/bin');
    expect(own.join(' ')).not.toContain(`--bind ${spec.scratch}/proxy.sock`);
  });

  it('binds the proxy socket in at the same path when it lies outside the scratch folder', () => {
    const args = bwrapArgs(
      {
        ...spec,
        network: 'allowed',
        proxy: {
          port: 3128,
          relay: {
            socket: '/tmp/patchbay-proxy-0123456789abcdef.sock',
            runtime: { program: '/usr/bin/node', folder: '/usr/bin', env: {} },
          },
        },
      },
      { file: '/usr/bin/node', args: ['server.js'], cwd: '/' },
      debian,
    );
    expect(args.join(' ')).toContain('--bind /tmp/patchbay-proxy-0123456789abcdef.sock /tmp/patchbay-proxy-0123456789abcdef.sock');
  });

  it('mounts the system read-only, keeps its symlinks, and lays deeper mounts over shallower ones', () => {
    expect(args.join(' ')).toContain('--ro-bind /usr /usr --symlink usr/bin /bin --ro-bind /etc /etc');
    expect(mounts(args)).toEqual([
      '--ro-bind /usr',
      '--ro-bind /etc',
      '--tmpfs /tmp',
      '--bind /home/ada',
      '--bind /home/ada/My Project',
      '--tmpfs /home/ada/.config/Patchbay', // the data directory hidden inside the shared home…
      '--ro-bind /home/ada/.nvm/versions/node/v20',
      '--bind /home/ada/.config/Patchbay/sandboxes/s1', // …but its own scratch folder back on top
    ]);
    // Then, every mount point made, the covers, /tmp and the root turn read-only: writes elsewhere fail.
    expect(args.join(' ')).toContain('--remount-ro /home/ada/.config/Patchbay --remount-ro /tmp --remount-ro / --setenv HOME');
  });

  it('runs the command as given in the scratch folder (HOME, TMPDIR) when its working directory is outside', () => {
    expect(args.slice(-4)).toEqual(['--', '/usr/bin/node', 'server.js', 'a b']);
    expect(args.join(' ')).toContain(`--setenv HOME ${spec.scratch} --setenv TMPDIR ${spec.scratch}/tmp --chdir ${spec.scratch}`);
    const inside = bwrapArgs(spec, { file: 'x', args: [], cwd: '/home/ada/My Project/src' }, debian);
    expect(inside.join(' ')).toContain('--chdir /home/ada/My Project/src');
  });
});

describe('findBlockedPath', () => {
  const box = { readOnly: ['/opt/server'], readWrite: ['/home/ada/shared'], scratch: '/data/sandboxes/s1' };

  it('names the path of a Node error object printed over several lines, when it is outside the sandbox', () => {
    const lines = ["Error: ENOENT: no such file or directory, open '/home/ada/.npmrc'", "  code: 'ENOENT',", "  path: '/home/ada/.npmrc'"];
    expect(findBlockedPath(lines, box)).toBe('/home/ada/.npmrc');
  });

  it('ignores paths the sandbox does show, and lines without a denial', () => {
    expect(findBlockedPath(["Error: ENOENT: no such file or directory, open '/home/ada/shared/missing.txt'"], box)).toBeUndefined();
    expect(findBlockedPath(['loading /home/ada/.npmrc'], box)).toBeUndefined();
    expect(findBlockedPath(["PermissionError: [Errno 13] Permission denied: '/root/.ssh/id_rsa'"], box)).toBe('/root/.ssh/id_rsa');
  });
});

describe('findDenials', () => {
  const box = { readOnly: ['/home/ada/docs', '/home/ada/work/vendor'], readWrite: ['/home/ada/work'], scratch: '/data/sandboxes/s1' };
  it('names every path denied, outside the sandbox or written where it is mounted read-only (the deepest mount decides)', () => {
    const lines = [
      "Error: EROFS: read-only file system, open '/home/ada/docs/a.txt'",
      "Error: EROFS: read-only file system, open '/home/ada/work/vendor/x.js'",
      "Error: ENOENT: no such file or directory, open '/home/ada/.ssh/id_rsa'",
      "Error: EROFS: read-only file system, open '/home/ada/notes.txt'", // the sandbox's read-only root
    ];
    expect(findDenials(lines, box)).toEqual([
      { path: '/home/ada/docs/a.txt', kind: 'read-only' },
      { path: '/home/ada/work/vendor/x.js', kind: 'read-only' },
      { path: '/home/ada/.ssh/id_rsa', kind: 'outside' },
      { path: '/home/ada/notes.txt', kind: 'write-outside' },
    ]);
    expect(findDenials(["Error: EROFS: read-only file system, open '/home/ada/work/b.txt'"], box)).toEqual([]);
  });
});

describe('hostAllowed', () => {
  it('matches a listed name exactly, a *. entry for subdomains only, and a port when one is given', () => {
    const list = ['registry.npmjs.org', '*.example.com', 'api.test:8443'];
    expect(hostAllowed('registry.npmjs.org', 443, list)).toBe(true);
    expect(hostAllowed('evil-registry.npmjs.org', 443, list)).toBe(false);
    expect(hostAllowed('a.example.com', 443, list)).toBe(true);
    expect(hostAllowed('example.com.evil.net', 443, list)).toBe(false);
    expect(hostAllowed('api.test', 8443, list)).toBe(true);
    expect(hostAllowed('api.test', 443, list)).toBe(false);
    // The loopback under its three names is one place, the port still counts.
    expect(hostAllowed('127.0.0.1', 3000, ['localhost:3000'])).toBe(true);
    expect(hostAllowed('[::1]', 3000, ['localhost:3000'])).toBe(true);
    expect(hostAllowed('localhost', 3000, ['127.0.0.1:3000'])).toBe(true);
    expect(hostAllowed('127.0.0.1', 3001, ['localhost:3000'])).toBe(false);
    expect(hostAllowed('127.0.0.2', 3000, ['localhost:3000'])).toBe(false);
  });
});
