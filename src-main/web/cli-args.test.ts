import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../core/data-dir';
import { parseWebArgs } from './cli-args';

describe('parseWebArgs', () => {
  it('defaults to a free port, opening the browser, and the per-user data directory', () => {
    expect(parseWebArgs([], { HOME: '/home/ada' })).toEqual({ port: 0, open: true, dataDir: defaultDataDir({ HOME: '/home/ada' }) });
  });

  it('reads --port, --no-open and --data-dir (which wins over PATCHBAY_DATA_DIR)', () => {
    expect(parseWebArgs(['--port', '4321', '--no-open', '--data-dir', 'rel/dir'], { PATCHBAY_DATA_DIR: '/env/dir' })).toEqual({
      port: 4321,
      open: false,
      dataDir: path.resolve('rel/dir'),
    });
    expect(parseWebArgs([], { PATCHBAY_DATA_DIR: '/env/dir' })).toMatchObject({ dataDir: '/env/dir' });
  });

  it('rejects bad ports and unknown flags with a message', () => {
    expect(() => parseWebArgs(['--port', 'abc'], {})).toThrow(/--port/);
    expect(() => parseWebArgs(['--port', '70000'], {})).toThrow(/--port/);
    expect(() => parseWebArgs(['--bogus'], {})).toThrow(/bogus/);
  });
});

describe('defaultDataDir', () => {
  it('matches the directory Electron uses on each platform', () => {
    expect(defaultDataDir({}, 'linux')).toMatch(/\.config[/\\]Patchbay$/);
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe(path.join('/xdg', 'Patchbay'));
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library[/\\]Application Support[/\\]Patchbay$/);
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32')).toContain('Patchbay');
  });
});
