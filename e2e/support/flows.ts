/**
 * Small helpers the user-flow specs share: reaching a page from the main navigation (whether it shows
 * its entries as buttons or links), a server row by its name, and the typed contract over a raw
 * WebSocket for setting things up as the renderer would.
 */
import type { Locator, Page } from '@playwright/test';
import type { HostApi, ServerView } from '@contract';
import { hostApi } from './host-api';
import { expect, type WebHost } from './web-host';

/** Opens a page from the main navigation by its name. */
export async function openPage(page: Page, name: 'Chat' | 'Servers' | 'Roots' | 'Logs' | 'Settings'): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav
    .getByRole('button', { name, exact: true })
    .or(nav.getByRole('link', { name, exact: true }))
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
}

/** A server's row (or card) in the Servers list. */
export function serverRow(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
}

/** Waits until a server's row shows the status. */
export async function expectServerStatus(page: Page, name: string, status: 'stopped' | 'starting' | 'ready' | 'error' | 'crashed') {
  await expect(serverRow(page, name)).toHaveAttribute('data-status', status, { timeout: 60_000 });
}

export interface ContractClient {
  api: HostApi;
  server(id: string): Promise<ServerView>;
  /** Waits until the host reports the server in this status. */
  waitFor(id: string, status: ServerView['runtime']['status'], timeout?: number): Promise<ServerView>;
  close(): Promise<void>;
}

/** The typed contract over a raw WebSocket (see host-api.ts), with a wait on a server's status. */
export async function contractClient(webHost: WebHost): Promise<ContractClient> {
  const { socket, api, server } = await hostApi(webHost);
  return {
    api,
    server,
    async waitFor(serverId, status, timeout = 60_000) {
      let last: ServerView | undefined;
      await expect.poll(async () => (last = await server(serverId))?.runtime.status, { timeout }).toBe(status);
      return last!;
    },
    close: () => socket.close(),
  };
}

/**
 * Clicks a button of an MCP App's question the way a person does: once it is in view and has stood
 * still long enough to take a click (it ignores clicks right after it appeared or moved, see
 * useSettledClicks; Playwright's own scrolling into view counts as a move).
 */
export async function clickWhenStill(button: Locator): Promise<void> {
  await button.scrollIntoViewIfNeeded();
  await expect(button).not.toHaveAttribute('aria-disabled', 'true');
  await button.click();
}
