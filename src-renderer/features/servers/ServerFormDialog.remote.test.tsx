import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerConfigView, ServerInput } from '@contract';
import { HostCallError } from '@contract';
import { ServerFormDialog } from './ServerFormDialog';
import { deferred, serverView } from './test-support/server-factories';

afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const described = (label: string) => document.getElementById(field(label).getAttribute('aria-describedby') ?? '')?.textContent;
const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

function renderForm(server?: ServerConfigView) {
  const call = deferred();
  const onSubmit = vi.fn((_input: ServerInput) => call.promise);
  render(<ServerFormDialog open server={server} onOpenChange={vi.fn()} onSubmit={onSubmit} />);
  return { call, onSubmit };
}

const remoteServer = serverView({
  name: 'linear',
  transport: 'http',
  command: '',
  args: [],
  url: 'https://mcp.linear.app/mcp',
  headers: [
    { key: 'Authorization', secret: true },
    { key: 'X-Trace', secret: false, value: '1' },
  ],
}).config;

describe('ServerFormDialog: remote servers', () => {
  it('shows the fields of the chosen Type, keeping what was typed in the other', () => {
    renderForm();
    const types = within(screen.getByRole('radiogroup', { name: 'Type' }));
    const local = types.getByRole('radio', { name: 'Local command' }) as HTMLInputElement;
    const remote = types.getByRole('radio', { name: 'Remote URL' }) as HTMLInputElement;
    expect(local.checked).toBe(true);
    // One name: the browser moves between them with the arrow keys.
    expect(remote.name).toBe(local.name);
    expect(['Command', 'Arguments', 'Environment', 'Working directory'].every((label) => screen.queryByLabelText(label))).toBe(true);
    expect(screen.queryByLabelText('URL')).toBeNull();
    type('Command', 'npx');

    fireEvent.click(remote);
    expect(remote.checked).toBe(true);
    expect(field('URL').placeholder).toBe('https://example.com/mcp');
    expect(described('URL')).toBe('Streamable HTTP; old HTTP+SSE servers are detected automatically.');
    expect(field('Headers')).toBeTruthy();
    expect(field('Name')).toBeTruthy();
    for (const label of ['Command', 'Arguments', 'Environment', 'Working directory']) expect(screen.queryByLabelText(label)).toBeNull();

    fireEvent.click(local);
    expect(field('Command').value).toBe('npx');
  });

  it('sends a remote server with its headers, secret ones marked so', () => {
    const { onSubmit } = renderForm();
    fireEvent.click(screen.getByRole('radio', { name: 'Remote URL' }));
    type('Name', 'docs');
    type('URL', ' https://docs.example/mcp ');
    type('Headers', 'Authorization: Bearer abc:def\n\nX-Trace:1\nX-Session-Key: k');
    expect(checkbox('Authorization').checked).toBe(true);
    expect(checkbox('X-Trace').checked).toBe(false);
    fireEvent.click(checkbox('X-Session-Key')); // looked secret; the user says it is not
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({
      transport: 'http',
      name: 'docs',
      url: 'https://docs.example/mcp',
      headers: [
        { key: 'Authorization', value: 'Bearer abc:def', secret: true },
        { key: 'X-Trace', value: '1', secret: false },
        { key: 'X-Session-Key', value: 'k', secret: false },
      ],
      oauthClientId: '',
      signInMode: 'browser',
      oauthClientAuth: 'client_secret',
      oauthAssertionCommand: '',
      oauthIssuer: '',
      idpIssuer: '',
      idpTokenEndpoint: '',
      idpClientId: '',
      idpIdTokenCommand: '',
      enabled: true,
      initTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      autoRestart: true,
    });
  });

  it('puts the host errors on URL and on the header line they are about', async () => {
    const { call } = renderForm();
    fireEvent.click(screen.getByRole('radio', { name: 'Remote URL' }));
    type('Name', 'x');
    type('URL', 'ftp://x');
    type('Headers', 'X-Ok: 1\n\nAccept: text/plain');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(async () =>
      call.reject(
        new HostCallError('invalid_input', 'Invalid input', [
          { path: ['url'], message: 'Enter an http:// or https:// URL' },
          { path: ['headers', '1', 'key'], message: 'Patchbay sets this header itself' },
          { path: ['command'], message: 'Command is required' },
        ]),
      ),
    );
    expect(field('URL').getAttribute('aria-invalid')).toBe('true');
    expect(described('URL')).toBe('Enter an http:// or https:// URL');
    expect(described('Headers')).toBe('Line 3 (Accept): Patchbay sets this header itself');
    // Not a field this Type shows: said in the form's message rather than lost.
    expect(screen.getByRole('alert').textContent).toBe('Not saved: Command is required');
    type('URL', 'https://x');
    expect(field('URL').getAttribute('aria-invalid')).toBeNull();
  });

  it('edits a remote server keeping its stored secret header hidden and unchanged', () => {
    const { onSubmit } = renderForm(remoteServer);
    expect((screen.getByRole('radio', { name: 'Remote URL' }) as HTMLInputElement).checked).toBe(true);
    expect(field('URL').value).toBe('https://mcp.linear.app/mcp');
    expect(field('Headers').value).toBe('Authorization: ••••••\nX-Trace: 1');
    expect(checkbox('Authorization').disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      transport: 'http',
      headers: [
        { key: 'Authorization', secret: true },
        { key: 'X-Trace', value: '1', secret: false },
      ],
    });
    expect(onSubmit.mock.calls[0][0].headers?.[0]).not.toHaveProperty('value');
  });

  it('keeps a pre-registered OAuth client on edit, and its stored secret unless a new one is typed', async () => {
    const { call, onSubmit } = renderForm({ ...remoteServer, oauthClientId: 'patchbay-desktop', oauthClientSecretSet: true });
    expect(field('OAuth client ID').value).toBe('patchbay-desktop');
    expect(described('OAuth client secret')).toBe('A secret is stored: leave this empty to keep it.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0].oauthClientId).toBe('patchbay-desktop');
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('oauthClientSecret');
    await act(async () => call.reject(new HostCallError('internal', 'try again'))); // the form stays open
    type('OAuth client secret', 's3cret');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[1][0]).toMatchObject({ oauthClientId: 'patchbay-desktop', oauthClientSecret: 's3cret' });
  });

  it('sets up a server that signs in as an application with a private key, which is sent once and never shown', () => {
    const { onSubmit } = renderForm();
    fireEvent.click(screen.getByRole('radio', { name: 'Remote URL' }));
    type('Name', 'reports');
    type('URL', 'https://reports.example/mcp');
    const modes = within(screen.getByRole('radiogroup', { name: 'Sign in' }));
    expect((modes.getByRole('radio', { name: 'As you, in the browser' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('radiogroup', { name: 'Client authentication' })).toBeNull();
    fireEvent.click(modes.getByRole('radio', { name: 'As an application' }));
    type('OAuth client ID', 'reporting-bot');
    fireEvent.click(screen.getByRole('radio', { name: 'Private key (signed JWT)' }));
    expect(screen.queryByLabelText('OAuth client secret')).toBeNull();
    type('Private key (PEM)', '-----BEGIN PRIVATE KEY-----\nMC4C…\n-----END PRIVATE KEY-----\n');
    type('Authorization server (issuer)', 'https://auth.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      signInMode: 'application',
      oauthClientId: 'reporting-bot',
      oauthClientAuth: 'private_key_jwt',
      oauthPrivateKey: '-----BEGIN PRIVATE KEY-----\nMC4C…\n-----END PRIVATE KEY-----',
      oauthIssuer: 'https://auth.example.com',
    });
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('oauthClientSecret');
  });

  it('edits an application server: Advanced open, the stored key kept unless a new one is pasted', () => {
    const { onSubmit } = renderForm({
      ...remoteServer,
      signInMode: 'application',
      oauthClientId: 'reporting-bot',
      oauthClientAuth: 'private_key_jwt',
      oauthPrivateKeySet: true,
    });
    expect((screen.getByText('Advanced').closest('details') as HTMLDetailsElement).open).toBe(true);
    expect(described('Private key (PEM)')).toBe('A key is stored: leave this empty to keep it.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ signInMode: 'application', oauthClientAuth: 'private_key_jwt' });
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('oauthPrivateKey');
  });

  it("sets up sign-in through the organisation's identity provider; the host's complaints land on its fields", async () => {
    const { call, onSubmit } = renderForm();
    fireEvent.click(screen.getByRole('radio', { name: 'Remote URL' }));
    type('Name', 'wiki');
    type('URL', 'https://wiki.example/mcp');
    const advanced = screen.getByText('Advanced').closest('details') as HTMLDetailsElement;
    fireEvent.click(screen.getByText('Advanced'));
    expect(advanced.open).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Through your organisation' }));
    type('OAuth client ID', 'wiki-client');
    type('OAuth client secret', 'wiki-secret');
    type('Identity provider', 'https://sso.example.com');
    type('Identity provider client ID', 'patchbay');
    type('ID token command', 'kubelogin get-token --oidc-issuer-url=https://sso.example.com');
    fireEvent.click(screen.getByText('Advanced')); // closed again by the user
    expect(advanced.open).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      signInMode: 'organization',
      oauthClientId: 'wiki-client',
      oauthClientSecret: 'wiki-secret',
      idpIssuer: 'https://sso.example.com',
      idpClientId: 'patchbay',
      idpIdTokenCommand: 'kubelogin get-token --oidc-issuer-url=https://sso.example.com',
    });
    await act(async () =>
      call.reject(
        new HostCallError('invalid_input', 'Invalid input', [{ path: ['idpTokenEndpoint'], message: 'Enter an http:// or https:// URL' }]),
      ),
    );
    expect(advanced.open).toBe(true); // reopened: the error is in there
    expect(described('Identity provider token endpoint')).toBe('Enter an http:// or https:// URL');
  });

  it('refuses the placeholder under a new header name, and a line without a colon', () => {
    const { onSubmit } = renderForm(remoteServer);
    type('Headers', 'Proxy-Authorization: ••••••\nX-Trace');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(described('Headers')).toBe(
      'Line 1: enter the value for Proxy-Authorization (a stored secret stays with its original name); Line 2: write Name: value',
    );
  });
});
