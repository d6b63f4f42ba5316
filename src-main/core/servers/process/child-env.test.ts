import { describe, expect, it } from 'vitest';
import { buildChildEnv, getPathVar, withPathVar } from './child-env';

describe('buildChildEnv', () => {
  const parent = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    USER: 'u',
    LANG: 'en_US.UTF-8',
    LC_CTYPE: 'UTF-8',
    XDG_CONFIG_HOME: '/home/u/.config',
    TMPDIR: '/tmp',
    TZ: 'UTC',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    OPENAI_API_KEY: 'sk-secret',
    GITHUB_TOKEN: 'ghp_secret',
    NODE_OPTIONS: '--inspect',
    ELECTRON_RUN_AS_NODE: '1',
  };

  it('passes the allow-list only, never secrets or runtime switches', () => {
    expect(buildChildEnv(parent, {}, 'linux')).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      USER: 'u',
      LANG: 'en_US.UTF-8',
      LC_CTYPE: 'UTF-8',
      XDG_CONFIG_HOME: '/home/u/.config',
      TMPDIR: '/tmp',
      TZ: 'UTC',
    });
  });

  it('adds the configured variables, which win', () => {
    const env = buildChildEnv(parent, { GITHUB_TOKEN: 'configured-for-this-server', HOME: '/srv' }, 'linux');
    expect(env.GITHUB_TOKEN).toBe('configured-for-this-server');
    expect(env.HOME).toBe('/srv');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('matches Windows names case-insensitively and keeps the basics programs need', () => {
    const win = { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', COMSPEC: 'cmd.exe', APPDATA: 'x', ANTHROPIC_API_KEY: 'k' };
    const env = buildChildEnv(win, { PATH: 'C:\\tools' }, 'win32');
    expect(env).toEqual({ PATH: 'C:\\tools', SystemRoot: 'C:\\Windows', COMSPEC: 'cmd.exe', APPDATA: 'x' });
    expect(getPathVar(win, 'win32')).toBe('C:\\Windows');
    expect(withPathVar({ Path: 'a' }, 'b', 'win32')).toEqual({ Path: 'b' });
  });
});
