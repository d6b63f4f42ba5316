import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { choose } from '../../test-support/choose';
import type { SandboxSupport, ServerInput } from '@contract';
import { HostCallError } from '@contract';
import { ServerFormDialog } from './ServerFormDialog';
import { deferred, serverView } from './test-support/server-factories';

afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

function renderForm(server = serverView().config, mode: 'add' | 'edit' = 'add', sandboxSupport: SandboxSupport = { supported: true }) {
  const call = deferred();
  const onSubmit = vi.fn((_input: ServerInput) => call.promise);
  const onOpenChange = vi.fn();
  render(
    <ServerFormDialog
      open
      server={mode === 'edit' ? server : undefined}
      onOpenChange={onOpenChange}
      onSubmit={onSubmit}
      sandboxSupport={sandboxSupport}
    />,
  );
  return { call, onSubmit, onOpenChange };
}

describe('ServerFormDialog', () => {
  it('sends a ServerInput built from what was typed, and closes once the host saved', async () => {
    const { call, onSubmit, onOpenChange } = renderForm();
    expect(screen.getByRole('dialog', { name: 'Add server' })).toBeTruthy();
    type('Name', ' echo ');
    type('Command', 'npx');
    type('Arguments', '-y\n\n@modelcontextprotocol/server-everything \n');
    type('Environment', 'DEBUG=1\nAPI_TOKEN=abc=def\n\nPLAIN_AUTH_MODE=basic');
    fireEvent.click(screen.getByRole('checkbox', { name: 'PLAIN_AUTH_MODE' })); // looked secret; the user says it is not
    type('Working directory', '~/mcp');
    type('Initialize timeout (s)', '30');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(onSubmit).toHaveBeenCalledWith({
      transport: 'stdio',
      name: 'echo',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: [
        { key: 'DEBUG', value: '1', secret: false },
        { key: 'API_TOKEN', value: 'abc=def', secret: true },
        { key: 'PLAIN_AUTH_MODE', value: 'basic', secret: false },
      ],
      cwd: '~/mcp',
      enabled: true,
      initTimeoutMs: 30_000,
      requestTimeoutMs: 60_000,
      autoRestart: true,
      sandbox: { enabled: true, network: 'allowed', hosts: [] }, // the default for a new local server
    });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(onOpenChange).not.toHaveBeenCalled();
    await act(async () => call.resolve(undefined));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('sends an untouched stored secret without its value, and a retyped one with it', () => {
    const server = serverView({
      name: 'gh',
      env: [
        { key: 'GITHUB_TOKEN', secret: true },
        { key: 'OTHER_SECRET', secret: true },
        { key: 'LOG', secret: false, value: 'debug' },
      ],
    }).config;
    const { onSubmit } = renderForm(server, 'edit');
    expect(screen.getByRole('dialog', { name: 'Edit gh' })).toBeTruthy();
    expect(field('Environment').value).toBe('GITHUB_TOKEN=••••••\nOTHER_SECRET=••••••\nLOG=debug');
    expect((screen.getByRole('checkbox', { name: 'GITHUB_TOKEN' }) as HTMLInputElement).disabled).toBe(true);
    type('Environment', 'GITHUB_TOKEN=••••••\nOTHER_SECRET=new-value\nLOG=debug');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0].env).toEqual([
      { key: 'GITHUB_TOKEN', secret: true },
      { key: 'OTHER_SECRET', value: 'new-value', secret: true },
      { key: 'LOG', value: 'debug', secret: false },
    ]);
  });

  it('shows host field errors next to their fields and keeps the draft', async () => {
    const { call, onOpenChange } = renderForm();
    type('Name', 'dup');
    type('Command', 'node');
    type('Environment', 'OK=1\n\n1BAD=2');
    type('Working directory', '/nope');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(async () =>
      call.reject(
        new HostCallError('invalid_input', 'Invalid input', [
          { path: ['name'], message: 'A server named "dup" already exists' },
          { path: ['cwd'], message: 'No such directory: /nope' },
          { path: ['env', '1', 'key'], message: 'Use letters, digits and _ only' },
        ]),
      ),
    );
    const described = (label: string) => document.getElementById(field(label).getAttribute('aria-describedby') ?? '')?.textContent;
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(described('Name')).toBe('A server named "dup" already exists');
    expect(described('Working directory')).toBe('No such directory: /nope');
    expect(described('Environment')).toBe('Line 3 (1BAD): Use letters, digits and _ only');
    expect(field('Command').getAttribute('aria-invalid')).toBeNull();
    expect(field('Name').value).toBe('dup');
    expect(field('Environment').value).toBe('OK=1\n\n1BAD=2');
    expect(screen.getByRole('alert').textContent).toContain('Not saved');
    expect(onOpenChange).not.toHaveBeenCalled();

    type('Name', 'unique');
    expect(field('Name').getAttribute('aria-invalid')).toBeNull();
  });

  it('reads updateServer paths (prefixed with server) and opens Advanced for a timeout error', async () => {
    const { call } = renderForm(serverView().config, 'edit');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(async () =>
      call.reject(
        new HostCallError('invalid_input', 'Invalid input', [
          { path: ['server', 'requestTimeoutMs'], message: 'Too small: expected >=1000' },
        ]),
      ),
    );
    expect(screen.getByText('Advanced').closest('details')?.open).toBe(true);
    expect(field('Request timeout (s)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Too small: expected >=1000')).toBeTruthy();
  });

  it('catches what it can see itself without calling the host', () => {
    const { onSubmit } = renderForm();
    type('Environment', 'NO_EQUALS_SIGN');
    type('Initialize timeout (s)', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Line 1: write KEY=value')).toBeTruthy();
    expect(screen.getByText('Enter a number of seconds')).toBeTruthy();
  });

  it('is one form whose Save is its submit button, so Enter in a single-line field submits', () => {
    const { onSubmit } = renderForm();
    type('Name', 'x');
    type('Command', 'node');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.type).toBe('submit');
    expect(save.form).toBe(field('Command').form);
    fireEvent.submit(field('Command').form as HTMLFormElement);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('runs a new local server in a sandbox by default (network allowed); unsandboxed is a choice it states', () => {
    const { onSubmit } = renderForm();
    type('Name', 'files');
    type('Command', 'npx');
    expect(screen.getByRole('switch', { name: 'Sandbox' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Network' }).textContent).toBe('Allowed');
    expect(screen.queryByText(/^Runs unsandboxed/)).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Sandbox' }));
    expect(screen.getByText(/^Runs unsandboxed: it can read and write everything you can/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ sandbox: { enabled: false } });
  });

  it('runs a local server in a sandbox with the chosen network, and lists the hosts of Only these hosts', async () => {
    const { onSubmit } = renderForm();
    type('Name', 'files');
    type('Command', 'npx');
    const network = screen.getByRole('combobox', { name: 'Network' });
    expect(network.textContent).toBe('Allowed');
    fireEvent.keyDown(network, { key: 'Enter' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Allowed', 'Blocked', 'Only these hosts']);
    fireEvent.click(screen.getByRole('option', { name: 'Only these hosts' }));
    type('Hosts', 'registry.npmjs.org\napi.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      sandbox: { enabled: true, network: 'hosts', hosts: ['registry.npmjs.org', 'api.example.com'] },
    });
  });

  it('with the network allowed, lists the ports on this computer it may reach (none by default)', () => {
    const { onSubmit } = renderForm();
    type('Name', 'web');
    type('Command', 'npx');
    expect(field('Ports on this computer').value).toBe('');
    type('Ports on this computer', 'localhost:8080');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ sandbox: { enabled: true, network: 'allowed', hosts: ['localhost:8080'] } });
  });

  it('warns beforehand when npx or uvx could not reach its registry from the sandbox', async () => {
    renderForm();
    type('Name', 'files');
    type('Command', 'npx');
    const warning = 'npx needs the npm registry (registry.npmjs.org) to start: allow that host or run with network allowed.';
    expect(screen.queryByText(warning)).toBeNull(); // Allowed, the default
    await choose(screen.getByRole('combobox', { name: 'Network' }), 'Blocked');
    expect(screen.getByText(warning)).toBeTruthy();
    await choose(screen.getByRole('combobox', { name: 'Network' }), 'Only these hosts');
    type('Hosts', 'api.example.com');
    expect(screen.getByText(warning)).toBeTruthy();
    type('Hosts', 'api.example.com\nregistry.npmjs.org');
    expect(screen.queryByText(warning)).toBeNull();
    await choose(screen.getByRole('combobox', { name: 'Network' }), 'Blocked');
    type('Command', 'uvx');
    expect(screen.getByText(/^uvx needs PyPI \(pypi.org, files.pythonhosted.org\) to start: allow those hosts/)).toBeTruthy();
    await choose(screen.getByRole('combobox', { name: 'Network' }), 'Allowed');
    expect(screen.queryByText(/needs PyPI/)).toBeNull();
  });

  it('shows a stored sandbox as it is, and sends it unchanged', () => {
    const server = serverView({ sandbox: { enabled: true, network: 'allowed', hosts: [] } }).config;
    const { onSubmit } = renderForm(server, 'edit');
    expect(screen.getByRole('switch', { name: 'Sandbox' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Network' }).textContent).toBe('Allowed');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ sandbox: { enabled: true, network: 'allowed', hosts: [] } });
  });

  it('says in one line what to install where the sandbox cannot run, and that new servers run unsandboxed there', () => {
    const reason =
      'New servers run unsandboxed here, with your full access: to sandbox them, install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap).';
    const { onSubmit } = renderForm(serverView().config, 'add', { supported: false, reason });
    expect(screen.getByText(reason)).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: 'Sandbox' }) as HTMLButtonElement;
    expect([toggle.disabled, toggle.getAttribute('aria-checked')]).toEqual([true, 'false']);
    type('Name', 'files');
    type('Command', 'node');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ sandbox: { enabled: false } });
  });
});
