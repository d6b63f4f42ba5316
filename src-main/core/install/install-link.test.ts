import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../test-support/fixtures';
import { startTestHost } from '../../test-support/test-host';
import { parseOpenTarget } from '../../desktop/open-request';

/** A `patchbay://install?` link for a server definition. */
const link = (server: unknown, scheme = 'patchbay://install?') => `${scheme}${encodeURIComponent(JSON.stringify(server))}`;

describe('install links', () => {
  it('asks for the link’s inputs, shows exactly what will run, and adds the server stopped unless the user ticks Start', async () => {
    const { api } = startTestHost();
    const everything = referenceServer('everything', ['stdio']);
    const text = link({
      name: 'everything',
      command: everything.command,
      args: everything.args,
      env: { API_TOKEN: '${input:token}', REGION: '${input:region}' },
      inputs: [
        { id: 'token', type: 'promptString', description: 'Your API token', password: true },
        { id: 'region', type: 'promptString', description: 'Region', default: 'eu' },
      ],
    });
    const plan = await api.planInstall({ source: { kind: 'link', link: text } });
    expect(plan.startByDefault).toBe(false);
    expect(plan.about.facts).toEqual([
      { label: 'Kind', value: 'Local command' },
      { label: 'From', value: 'an install link' },
    ]);
    expect(plan.fields).toEqual([
      { id: 'token', label: 'Your API token', kind: 'string', required: true, secret: true },
      { id: 'region', label: 'Region', kind: 'string', required: true, secret: false, default: 'eu' },
    ]);
    expect(plan.preview).toMatchObject({
      commandLine: [everything.command, ...(everything.args ?? [])].join(' '),
      env: [
        { key: 'API_TOKEN', secret: true },
        { key: 'REGION', secret: false, value: 'eu' },
      ],
      missing: ['Your API token'],
    });
    const view = await api.install({ source: { kind: 'link', link: text }, values: { token: 't-123', region: 'us' } });
    expect(view.config).toMatchObject({
      name: 'everything',
      enabled: false,
      env: [
        { key: 'API_TOKEN', secret: true },
        { key: 'REGION', secret: false, value: 'us' },
      ],
    });
    expect(view.runtime.status).toBe('stopped');
    expect(JSON.stringify(await api.getSnapshot())).not.toContain('t-123');
  });

  it('reads VS Code’s own vscode:mcp/install links, remote ones included', async () => {
    const { api } = startTestHost();
    const text = link(
      { name: 'docs', type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${input:key}' } },
      'vscode:mcp/install?',
    );
    const preview = await api.previewInstall({ source: { kind: 'link', link: text }, values: { key: 'abc' } });
    expect(preview).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: [{ key: 'Authorization', secret: true }],
    });
  });

  it('refuses a broken link with its reason, and adds a server that needs editing disabled even when Start is ticked', async () => {
    const { api } = startTestHost();
    await expect(api.planInstall({ source: { kind: 'link', link: 'patchbay://uninstall?{}' } })).rejects.toThrow(
      /This link cannot be installed: Patchbay links can only install a server/,
    );
    await expect(
      api.planInstall({ source: { kind: 'link', link: link({ name: 'x', command: 'a', url: 'https://x.example' }) } }),
    ).rejects.toThrow(/url: does not belong to a local server/);
    const text = link({ name: 'ws', command: 'node', args: ['${workspaceFolder}/server.js'] });
    const preview = await api.previewInstall({ source: { kind: 'link', link: text } });
    expect(preview.notes).toEqual(['It will be added disabled: replace ${workspaceFolder} (in args) before enabling']);
    const view = await api.install({ source: { kind: 'link', link: text }, start: true });
    expect(view.config.enabled).toBe(false);
  });

  it('answers the open request it came from: installing dismisses it', async () => {
    const { api, host } = startTestHost();
    const text = link({ name: 'from the OS', command: 'node', args: ['-e', '0'] });
    const request = parseOpenTarget(text, { source: 'open-url', now: new Date(), isFile: () => false });
    host.app.receiveOpenRequest(request);
    expect((await api.getSnapshot()).app.openRequests).toHaveLength(1);
    await api.install({ source: { kind: 'link', link: text }, openRequestId: request.id });
    expect((await api.getSnapshot()).app.openRequests).toEqual([]);
    expect((await api.getSnapshot()).servers.map((s) => s.config.name)).toEqual(['from the OS']);
  });
});
