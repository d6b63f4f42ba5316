import { describe, expect, it } from 'vitest';
import { refusalToAdd, refusalToStart } from './admission';
import { managedSettingsFile, parseManagedSettings, type ManagedPolicy } from './managed-settings';

const FILE = '/etc/patchbay/managed-settings.json';
const policyOf = (json: unknown): ManagedPolicy => {
  const read = parseManagedSettings(FILE, JSON.stringify(json));
  if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
  return read.policy;
};
const local = (name: string, command: string, args: string[] = [], sandboxed = false) => ({
  name,
  transport: 'stdio' as const,
  command,
  args,
  url: '',
  sandbox: { enabled: sandboxed },
});
const remote = (name: string, url: string) => ({ name, transport: 'http' as const, command: '', args: [], url });

describe('the organisation file', () => {
  it('is found where the OS keeps admin files, or where PATCHBAY_MANAGED_SETTINGS says', () => {
    expect(managedSettingsFile({}, 'linux')).toBe(FILE);
    expect(managedSettingsFile({}, 'darwin')).toBe('/Library/Application Support/Patchbay/managed-settings.json');
    expect(managedSettingsFile({ ProgramData: 'D:\\Data' }, 'win32')).toBe('D:\\Data\\Patchbay\\managed-settings.json');
    expect(managedSettingsFile({ PATCHBAY_MANAGED_SETTINGS: '/tmp/x.json' }, 'linux')).toBe('/tmp/x.json');
  });

  it('says what is wrong with a file that does not check out', () => {
    expect(parseManagedSettings(FILE, '{')).toMatchObject({ kind: 'error', message: expect.stringMatching(/^It is not valid JSON/) });
    expect(parseManagedSettings(FILE, '{"deniedServers": [{"nme": "x"}]}')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^deniedServers\.0/),
    });
    expect(parseManagedSettings(FILE, '{"rules": ["deny tool"]}')).toEqual({
      kind: 'error',
      message: 'rules, line 1, column 10: Expected a tool name at the end of the rule',
    });
    expect(parseManagedSettings(FILE, '{"sandbox": "required", "rules": "deny tool x"}')).toMatchObject({
      kind: 'ok',
      policy: { sandboxRequired: true, rules: [{ source: 'organisation', decision: 'deny' }] },
    });
  });
});

describe('admission', () => {
  it('matches servers by name, argv prefix and URL glob; denied wins; an allow list admits only its own', () => {
    const policy = policyOf({
      deniedServers: [{ name: 'bad' }, { command: ['npx', '-y', 'evil'] }, { url: 'https://*.evil.example/*' }],
      allowedServers: [{ command: ['npx', '-y'] }, { url: 'https://mcp.corp.example/*' }],
    });
    expect(refusalToAdd(policy, local('bad', 'npx', ['-y', 'good']))).toMatch(/^Your organisation does not allow the server "bad"/);
    expect(refusalToAdd(policy, local('x', 'npx', ['-y', 'evil', '--flag']))).toMatch(/deniedServers/);
    expect(refusalToAdd(policy, local('x', 'npx', ['-y', 'evil-not']))).toBeUndefined();
    expect(refusalToAdd(policy, remote('r', 'https://api.evil.example/mcp'))).toMatch(/deniedServers/);
    expect(refusalToAdd(policy, remote('r', 'https://mcp.corp.example/v1'))).toBeUndefined();
    expect(refusalToAdd(policy, local('u', 'uvx', ['tool']))).toMatch(/allows only the servers it lists, and "u" is not one of them/);
    expect(refusalToAdd(undefined, local('bad', 'x'))).toBeUndefined();
  });

  it('requires the sandbox of local servers only', () => {
    const policy = policyOf({ sandbox: 'required' });
    expect(refusalToStart(policy, local('a', 'node'))).toMatch(/^Set by your organisation: local servers run only in a sandbox/);
    expect(refusalToStart(policy, local('a', 'node', [], true))).toBeUndefined();
    expect(refusalToStart(policy, remote('r', 'https://x.example/'))).toBeUndefined();
  });
});
