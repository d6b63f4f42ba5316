import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthView, ServerRuntime, SignInStart } from '@contract';
import { HostCallError } from '@contract';
import { ServerCard } from './ServerCard';
import { deferred, fakeActions, serverView } from './test-support/server-factories';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const URL_ = 'https://mcp.linear.app/mcp';
const AUTHORIZE = 'https://auth.example/authorize?client_id=p&state=s';

function renderRemote(runtime: Partial<ServerRuntime> = {}, actions = fakeActions()) {
  const server = serverView({ name: 'linear', transport: 'http', command: '', args: [], url: URL_ }, runtime);
  render(
    <ul role="list">
      <ServerCard server={server} actions={actions} onOpen={vi.fn()} onEdit={vi.fn()} />
    </ul>,
  );
  return { card: within(screen.getByRole('listitem', { name: 'linear' })), actions };
}

/** The tab `window.open` hands back: only what the page touches. window.open is the browser's, so it is stubbed. */
function fakeTab() {
  return { opener: window as Window | null, closed: false, location: { href: 'about:blank' }, close: vi.fn() };
}
function stubWindowOpen(tab: ReturnType<typeof fakeTab> | null) {
  return vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window | null);
}

describe('ServerCard: remote servers', () => {
  it('a server that asked to wait: Starting, what it said, and when the next try is — not an error', () => {
    const { card } = renderRemote({
      status: 'starting',
      detail: 'asked Patchbay to wait (HTTP 429 Too Many Requests) — retrying in 30 s',
      restart: { attempt: 1, of: 30, at: new Date(Date.now() + 30_000).toISOString() },
    });
    expect(card.getByText('Starting')).toBeTruthy();
    expect(card.getByText('asked Patchbay to wait (HTTP 429 Too Many Requests) — retrying in 30 s')).toBeTruthy();
    expect(card.getByText('Next try').nextElementSibling?.textContent).toMatch(/^Attempt 1 of 30, in 30 seconds$/);
    expect(card.getByRole('button', { name: 'Stop' })).toBeTruthy();
  });

  it('shows the URL, the HTTP transport in use and the session, shortened', () => {
    const { card } = renderRemote({
      status: 'ready',
      remote: { transport: 'streamable-http', sessionId: '1868a90c-2f4e-4c5b-9d7a-0123456789ab' },
    });
    expect(card.getByText(URL_)).toBeTruthy();
    expect(card.queryByText(/^node/)).toBeNull();
    expect(card.getByText('Streamable HTTP')).toBeTruthy();
    const session = card.getByText('1868a90c…');
    expect(session.getAttribute('title')).toBe('1868a90c-2f4e-4c5b-9d7a-0123456789ab');
    cleanup();
    expect(renderRemote({ status: 'ready', remote: { transport: 'sse' } }).card.getByText('HTTP+SSE (legacy)')).toBeTruthy();
  });

  const states: [AuthView, string, string][] = [
    [{ status: 'signed-out', error: 'access_denied: the user said no' }, 'Not signed in', 'Sign in'],
    [{ status: 'signing-in' }, 'Waiting for sign-in in your browser…', 'Sign in'],
    [{ status: 'signed-in', account: 'ada@example.com', issuer: 'https://auth.example' }, 'Signed in as ada@example.com', 'Sign out'],
    [{ status: 'expired' }, 'Needs sign-in again', 'Sign in'],
  ];
  it('a server that signs in as an application: says so, and Sign in opens no browser tab', async () => {
    const open = stubWindowOpen(fakeTab());
    const actions = fakeActions();
    const signedOut = { status: 'signed-out', mode: 'application', error: 'the authorization server refused: invalid_client' } as const;
    const { card } = renderRemote({ status: 'error', auth: signedOut }, actions);
    expect(card.getByText('Last sign-in failed: the authorization server refused: invalid_client')).toBeTruthy();
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Sign in' })));
    expect(actions.signIn).toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
    cleanup();
    const signedIn = renderRemote({ status: 'ready', auth: { status: 'signed-in', mode: 'application', account: 'reporting-bot' } });
    expect(signedIn.card.getByRole('status').textContent).toBe('Signed in as application reporting-bot');
    cleanup();
    const org = renderRemote({ status: 'ready', auth: { status: 'signed-in', mode: 'organization', account: 'grace@example.com' } });
    expect(org.card.getByRole('status').textContent).toBe('Signed in as grace@example.com through your organisation');
  });

  it('says when a server signs in the 2025-03-26 way', () => {
    const { card } = renderRemote({ status: 'ready', auth: { status: 'signed-in', account: 'ada', legacy: true } });
    expect(card.getByText('Signs in the 2025-03-26 way (no resource metadata)')).toBeTruthy();
    cleanup();
    expect(renderRemote({ status: 'ready', auth: { status: 'signed-in', account: 'ada' } }).card.queryByText(/2025-03-26/)).toBeNull();
  });

  it('says how the token is presented: DPoP (bound to a key) or Bearer', () => {
    const dpop = renderRemote({ status: 'ready', auth: { status: 'signed-in', account: 'ada', tokenType: 'DPoP' } });
    expect(dpop.card.getByText('Token: DPoP (bound to a key kept on this computer)')).toBeTruthy();
    cleanup();
    const bearer = renderRemote({ status: 'ready', auth: { status: 'signed-in', account: 'ada', tokenType: 'Bearer' } });
    expect(bearer.card.getByText('Token: Bearer')).toBeTruthy();
    cleanup();
    const out = renderRemote({ status: 'error', auth: { status: 'expired', account: 'ada', tokenType: 'DPoP' } });
    expect(out.card.queryByText(/^Token:/)).toBeNull();
  });

  it.each(states)('auth %o reads "%s" with %s', (auth, text, button) => {
    const { card } = renderRemote({ status: auth.status === 'signed-in' ? 'ready' : 'error', auth });
    expect(card.getByRole('status').textContent).toBe(text);
    expect(card.getByRole('button', { name: button })).toBeTruthy();
    expect(card.queryByRole('button', { name: button === 'Sign in' ? 'Sign out' : 'Sign in' })).toBeNull();
    if (auth.error) expect(card.getByText(`Last sign-in failed: ${auth.error}`)).toBeTruthy();
  });

  it('shows no sign-in for a server without auth', () => {
    const { card } = renderRemote({ status: 'ready' });
    expect(card.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('signs out, and says so when that fails', async () => {
    const { card, actions } = renderRemote({ status: 'ready', auth: { status: 'signed-in', account: 'ada' } });
    actions.signOut.mockRejectedValueOnce(new HostCallError('internal', 'database is locked'));
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Sign out' })));
    expect(actions.signOut).toHaveBeenCalledWith('srv-1');
    expect(card.getByRole('alert').textContent).toContain('Could not sign out: database is locked');
  });
});

describe('ServerCard: Sign in', () => {
  it('web mode: opens a blank tab within the click, then sends it to the authorization page', async () => {
    const tab = fakeTab();
    const open = stubWindowOpen(tab);
    const call = deferred<SignInStart>();
    const { card, actions } = renderRemote({ auth: { status: 'signed-out' } });
    actions.signIn.mockReturnValue(call.promise);

    fireEvent.click(card.getByRole('button', { name: 'Sign in' }));
    expect(open).toHaveBeenCalledWith('', '_blank'); // before anything was awaited
    expect(actions.signIn).toHaveBeenCalledWith('srv-1');
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe('about:blank');
    expect((card.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => call.resolve({ authorizationUrl: AUTHORIZE, openedByHost: false }));
    expect(tab.location.href).toBe(AUTHORIZE);
    expect(tab.close).not.toHaveBeenCalled();
    expect(card.queryByRole('link')).toBeNull();
    expect((card.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Electron: the host opened the browser, so the tab (if any) is closed', async () => {
    const tab = fakeTab();
    stubWindowOpen(tab);
    const { card, actions } = renderRemote({ auth: { status: 'expired' } });
    actions.signIn.mockResolvedValue({ authorizationUrl: AUTHORIZE, openedByHost: true });
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Sign in' })));
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('about:blank');
    cleanup();

    stubWindowOpen(null); // Electron's main process refuses window.open
    const electron = renderRemote({ auth: { status: 'expired' } });
    electron.actions.signIn.mockResolvedValue({ authorizationUrl: AUTHORIZE, openedByHost: true });
    await act(async () => fireEvent.click(electron.card.getByRole('button', { name: 'Sign in' })));
    expect(electron.card.queryByRole('link')).toBeNull();
    expect(electron.card.queryByRole('alert')).toBeNull();
  });

  it('offers the page as a link when no tab could be opened, or the user closed it meanwhile', async () => {
    stubWindowOpen(null);
    const { card } = renderRemote({ auth: { status: 'signed-out' } });
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Sign in' })));
    const link = card.getByRole('link', { name: 'Open the sign-in page' });
    expect(link.getAttribute('href')).toBe('https://auth.example/authorize?client_id=p');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(card.getByText('(auth.example)')).toBeTruthy();
    cleanup();

    const tab = fakeTab();
    stubWindowOpen(tab);
    const call = deferred<SignInStart>();
    const later = renderRemote({ auth: { status: 'signed-out' } });
    later.actions.signIn.mockReturnValue(call.promise);
    fireEvent.click(later.card.getByRole('button', { name: 'Sign in' }));
    tab.closed = true;
    await act(async () => call.resolve({ authorizationUrl: AUTHORIZE, openedByHost: false }));
    expect(later.card.getByRole('link', { name: 'Open the sign-in page' }).getAttribute('href')).toBe(AUTHORIZE);
  });

  it('closes the tab and says why when the sign-in cannot start, or the address is not a web page', async () => {
    const tab = fakeTab();
    stubWindowOpen(tab);
    const { card, actions } = renderRemote({ auth: { status: 'signed-out' } });
    actions.signIn.mockRejectedValueOnce(new HostCallError('internal', 'No authorization server found'));
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Sign in' })));
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(card.getByRole('alert').textContent).toContain('Could not start sign-in: No authorization server found');

    actions.signIn.mockResolvedValueOnce({ authorizationUrl: 'javascript:alert(document.cookie)', openedByHost: false });
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Sign in' })));
    expect(tab.close).toHaveBeenCalledTimes(2);
    expect(tab.location.href).toBe('about:blank');
    expect(card.getByRole('alert').textContent).toContain('not a web page');
    expect(card.queryByRole('link')).toBeNull();
  });
});
