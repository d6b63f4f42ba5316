/**
 * The Logs view, end to end in web mode: servers are added through the host API (the WebSocket
 * contract, as the renderer would), then read in the browser. The Protocol tab shows the handshake
 * with the negotiated version; while a server floods stderr at full speed, the filter box still
 * narrows the list within a second and the list stays windowed.
 */
import path from 'node:path';
import { REPO_ROOT } from '../support/paths';
import { hostApi } from '../support/host-api';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

test('Logs: the handshake with its negotiated version, and a filter that keeps up with a flooding server', async ({ page, webHost }) => {
  const api = await hostApi(webHost);
  const started: string[] = [];
  try {
    const everything = await api.api.addPresetServer({ preset: 'everything' });
    started.push(everything.config.id);
    let ready: Awaited<ReturnType<typeof api.server>> | undefined;
    await expect.poll(async () => (ready = await api.server(everything.config.id)).runtime.status, { timeout: 60_000 }).toBe('ready');
    const version = ready!.runtime.protocolVersion!;
    expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await page.goto(webHost.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logs', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Logs' })).toBeVisible();
    // The page opens on All servers (issue #41); this walk reads one server.
    await expect(page.getByRole('combobox', { name: 'Server', exact: true })).toContainText('All servers');
    await choose(page.getByRole('combobox', { name: 'Server', exact: true }), 'Everything (demo)');

    await test.step('Protocol shows initialize, its answer and the negotiated version', async () => {
      await page.getByRole('tab', { name: 'Protocol', exact: true }).click();
      const protocol = page.getByRole('list', { name: 'Protocol entries' });
      await expect(
        protocol
          .getByRole('listitem')
          .filter({ hasText: /^[\d:.]+→initialize#/ })
          .first(),
      ).toBeVisible();
      const answer = protocol.getByRole('listitem').filter({ hasText: 'result initialize' }).first();
      await expect(answer).toContainText(`"protocolVersion":"${version}"`);
      await answer.getByRole('button').click();
      const detail = page.getByRole('region', { name: 'Entry detail' });
      await expect(detail).toContainText(`"protocolVersion": "${version}"`);
      await expect(detail).toContainText('Latency');
    });

    await test.step('Host shows the spawn and the negotiated version', async () => {
      await page.getByRole('tab', { name: 'Host', exact: true }).click();
      const hostList = page.getByRole('list', { name: 'Host entries' });
      await expect(hostList.getByRole('listitem').filter({ hasText: /Spawned pid \d+: \/\S+node/ })).toHaveCount(1);
      await expect(hostList.getByRole('listitem').filter({ hasText: `negotiated protocol ${version}` })).toHaveCount(1);
    });

    await test.step('a server flooding stderr: the filter box still updates the list within a second', async () => {
      const flood = await api.api.addServer({
        name: 'flood',
        command: 'bash',
        args: [path.join(REPO_ROOT, 'e2e', 'fixtures', 'stderr-flood-live.sh')],
        env: [{ key: 'NODE_BIN', value: process.execPath }],
      });
      started.push(flood.config.id);
      await choose(page.getByRole('combobox', { name: 'Server', exact: true }), 'flood');
      // The Host tab stays open across servers (issue #17): back to Output.
      await expect(page.getByRole('tab', { name: 'Host', exact: true })).toHaveAttribute('aria-selected', 'true');
      await page.getByRole('tab', { name: 'Output', exact: true }).click();
      const output = page.getByRole('list', { name: 'Output entries' });
      await expect(output.getByRole('listitem').filter({ hasText: 'live flood: the quick brown fox' }).first()).toBeVisible({
        timeout: 30_000,
      });
      await expect.poll(async () => (await api.server(flood.config.id)).runtime.status, { timeout: 30_000 }).toBe('ready');

      const filter = page.getByRole('searchbox', { name: 'Filter' });
      const noMatch = page.getByText('No entries match the filter.');
      const latencies: number[] = [];
      for (const attempt of [1, 2, 3]) {
        await filter.fill('');
        await expect(output.getByRole('listitem').first()).toBeVisible({ timeout: 1000 });
        const typed = Date.now();
        await filter.pressSequentially(`no such line ${attempt}`);
        await expect(filter).toHaveValue(`no such line ${attempt}`, { timeout: 1000 });
        await expect(noMatch).toBeVisible({ timeout: 1000 });
        latencies.push(Date.now() - typed);
      }
      test.info().annotations.push({ type: 'typing + list update under flood (ms)', description: latencies.join(', ') });
      await filter.fill('brown fox');
      await expect(output.getByRole('listitem').first()).toContainText('brown fox', { timeout: 1000 });
      // Windowed: a few dozen rows in the DOM however many entries the list holds.
      expect(await output.getByRole('listitem').count()).toBeLessThan(60);
      await expect(page.getByRole('status', { name: 'Output status' })).toContainText('following');
    });
  } finally {
    for (const id of started) await api.api.stopServer({ id }).catch(() => undefined);
    await api.socket.close();
  }
});
