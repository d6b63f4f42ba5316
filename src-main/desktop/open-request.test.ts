import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import {
  handoverFor,
  openTargetsFromArgv,
  parseInstallLink,
  parseOpenTarget,
  targetsFromSecondInstance,
  type OpenContext,
} from './open-request';

const link = (value: unknown) => `patchbay://install?${encodeURIComponent(JSON.stringify(value))}`;
const isFile = (file: string) => fs.existsSync(file) && fs.statSync(file).isFile();
const context = (overrides: Partial<OpenContext> = {}): OpenContext => ({
  source: 'launch',
  now: new Date('2026-02-03T04:05:06Z'),
  isFile,
  id: 'req-1',
  ...overrides,
});

function reasonOf(result: ReturnType<typeof parseInstallLink>): string {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.server)}`);
  return result.reason;
}

describe('command-line targets', () => {
  it('takes links and bundle paths after the skipped arguments; switches and anything else are not targets', () => {
    const argv = [
      '/opt/Patchbay/patchbay',
      '--no-sandbox',
      'patchbay://install?x',
      'bundle.mcpb',
      'notes.txt',
      '--flag=a.mcpb',
      'PATCHBAY:install?y',
      'file:///tmp/a.mcpb',
    ];
    expect(openTargetsFromArgv(argv, { cwd: '/home/me', skip: 1 })).toEqual([
      'patchbay://install?x',
      path.resolve('/home/me', 'bundle.mcpb'),
      'PATCHBAY:install?y',
      'file:///tmp/a.mcpb',
    ]);
    // A development run: the electron binary and the app folder come first.
    expect(openTargetsFromArgv(['electron', '.', 'x.MCPB'], { cwd: '/w', skip: 2 })).toEqual([path.resolve('/w', 'x.MCPB')]);
    expect(openTargetsFromArgv(['patchbay'], { cwd: '/w', skip: 1 })).toEqual([]);
  });

  it('takes at most ten targets from one launch', () => {
    const argv = ['patchbay', ...Array.from({ length: 25 }, (_, i) => `b${i}.mcpb`)];
    expect(openTargetsFromArgv(argv, { cwd: '/w', skip: 1 })).toHaveLength(10);
  });

  it('hands a second launch over: its own resolved targets, or the argv when the data is not ours', () => {
    const data = handoverFor(['patchbay', 'rel/b.mcpb'], { cwd: '/second/cwd', skip: 1 });
    expect(data).toEqual({ patchbayOpen: [path.resolve('/second/cwd', 'rel/b.mcpb')] });
    // The first instance prefers what the second resolved with its own working directory.
    expect(targetsFromSecondInstance(['patchbay', '--x', 'other.mcpb'], '/first', data, 1)).toEqual(data.patchbayOpen);
    // Without usable data (an older Patchbay, garbage), the argv Electron passes is read instead.
    expect(targetsFromSecondInstance(['patchbay', 'other.mcpb'], '/first', undefined, 1)).toEqual([path.resolve('/first', 'other.mcpb')]);
    expect(targetsFromSecondInstance(['patchbay', 'other.mcpb'], '/first', { patchbayOpen: 'nope' }, 1)).toEqual([
      path.resolve('/first', 'other.mcpb'),
    ]);
  });
});

describe('patchbay://install links', () => {
  it('reads a local server the way VS Code install links describe one', () => {
    const server = {
      name: 'fetch',
      command: 'npx',
      args: ['-y', '@example/fetch-mcp'],
      env: { API_KEY: '${input:key}' },
      inputs: [{ id: 'key', type: 'promptString', description: 'API key', password: true }],
    };
    expect(parseInstallLink(link(server))).toEqual({ ok: true, server });
  });

  it('reads a remote server, by its type or by its url alone', () => {
    const typed = { name: 'remote', type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } };
    expect(parseInstallLink(link(typed))).toEqual({ ok: true, server: typed });
    expect(parseInstallLink(link({ name: 'sse', url: 'https://mcp.example.com/sse' }))).toMatchObject({ ok: true });
    expect(parseInstallLink(link({ name: 'local dev', type: 'sse', url: 'http://127.0.0.1:3001/sse' }))).toMatchObject({ ok: true });
    // The scheme's case and a missing "//" do not matter; a trailing slash on the action neither.
    expect(parseInstallLink(`PATCHBAY:install/?${encodeURIComponent(JSON.stringify(typed))}`)).toMatchObject({ ok: true });
  });

  it('refuses every other shape with a reason a person can act on', () => {
    expect(reasonOf(parseInstallLink('patchbay://uninstall?{}'))).toBe(
      'Patchbay links can only install a server (patchbay://install?…); this one asks for "uninstall"',
    );
    expect(reasonOf(parseInstallLink('patchbay://install'))).toBe('the link carries no server definition');
    expect(reasonOf(parseInstallLink('patchbay://install?{not json'))).toBe("the link's server definition is not valid JSON");
    expect(reasonOf(parseInstallLink('patchbay://install?%E0%A4%A'))).toBe("the link's server definition is not valid JSON");
    expect(reasonOf(parseInstallLink(link({ command: 'npx' })))).toMatch(/^the server definition is not valid: name: /);
    expect(reasonOf(parseInstallLink(link({ name: 'x' })))).toBe(
      'the server definition is not valid: command: a local server needs a command (or a remote one a url)',
    );
    expect(reasonOf(parseInstallLink(link({ name: 'x', command: 'npx', url: 'https://a.example' })))).toContain(
      'url: does not belong to a local server',
    );
    expect(reasonOf(parseInstallLink(link({ name: 'x', type: 'http', command: 'npx', url: 'https://a.example' })))).toContain(
      'command: does not belong to a remote server',
    );
    expect(reasonOf(parseInstallLink(link({ name: 'x', type: 'http' })))).toContain('url: a remote server needs a url');
    expect(reasonOf(parseInstallLink(link({ name: 'x', url: 'http://mcp.example.com/mcp' })))).toContain(
      'url: must be https (http only for 127.0.0.1 or localhost)',
    );
    expect(reasonOf(parseInstallLink(link({ name: 'x', type: 'ws', url: 'wss://a.example' })))).toContain('type:');
    expect(reasonOf(parseInstallLink(link({ name: 'x', command: 'npx', gallery: true })))).toMatch(/Unrecognized key.*gallery/);
    expect(reasonOf(parseInstallLink(link({ name: 'x', command: 'npx', env: { 'BAD NAME': 'v' } })))).toContain(
      'not a valid environment variable name',
    );
    expect(reasonOf(parseInstallLink(link({ name: 'x', command: 'npx', args: 'not a list' })))).toContain('args:');
    expect(reasonOf(parseInstallLink(`patchbay://install?${'a'.repeat(20_000)}`))).toBe('the link is longer than 16,384 characters');
  });
});

describe('open requests', () => {
  it('a link becomes an install-link request carrying the checked server; nothing else happens', () => {
    const target = link({ name: 'echo', command: 'node', args: ['echo.mjs'] });
    expect(parseOpenTarget(target, context({ source: 'open-url' }))).toEqual({
      id: 'req-1',
      receivedAt: '2026-02-03T04:05:06.000Z',
      source: 'open-url',
      kind: 'install-link',
      link: target,
      server: { name: 'echo', command: 'node', args: ['echo.mjs'] },
    });
    expect(parseOpenTarget('patchbay://evil', context())).toMatchObject({
      kind: 'rejected',
      input: 'patchbay://evil',
      reason: expect.stringContaining('can only install'),
    });
  });

  it('a bundle becomes an install-bundle request when the file is there, by path or file:// URL', () => {
    const dir = tempDir();
    const bundle = path.join(dir, 'My Server.mcpb');
    fs.writeFileSync(bundle, 'zip');
    expect(parseOpenTarget(bundle, context())).toMatchObject({ kind: 'install-bundle', path: bundle, source: 'launch' });
    expect(parseOpenTarget(pathToFileURL(bundle).href, context({ source: 'second-instance' }))).toMatchObject({
      kind: 'install-bundle',
      path: bundle,
    });
    expect(parseOpenTarget(path.join(dir, 'missing.mcpb'), context())).toMatchObject({
      kind: 'rejected',
      reason: 'the bundle file does not exist (or is not a file)',
    });
    fs.mkdirSync(path.join(dir, 'folder.mcpb'));
    expect(parseOpenTarget(path.join(dir, 'folder.mcpb'), context())).toMatchObject({
      kind: 'rejected',
      reason: 'the bundle file does not exist (or is not a file)',
    });
    expect(parseOpenTarget(pathToFileURL(path.join(dir, 'notes.txt')).href, context())).toMatchObject({
      kind: 'rejected',
      reason: 'Patchbay opens MCP bundles (.mcpb files) only',
    });
    expect(parseOpenTarget('relative.mcpb', context())).toMatchObject({ kind: 'rejected', reason: 'the bundle path is not absolute' });
  });

  it('gives each request its own id when none is given', () => {
    const { id: a } = parseOpenTarget('patchbay://x', { ...context(), id: undefined });
    const { id: b } = parseOpenTarget('patchbay://x', { ...context(), id: undefined });
    expect(a).not.toBe(b);
  });
});
