/**
 * The install dialog against a hostile registry on 127.0.0.1, in web mode: risky arguments are listed
 * (with words and an icon) before Install, invisible and direction-changing characters are shown as
 * escapes — in the dialog and, once installed, on the server's Overview — and Install stays possible.
 * Nothing is started: "Start it now" is unticked before installing.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { startRegistry } from '../support/registry';
import { expect, test } from '../support/web-host';

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

async function openInstall(page: Page, search: string, title: string) {
  await page.getByRole('button', { name: 'Find servers' }).click();
  const find = page.getByRole('dialog', { name: 'Find servers' });
  await find.getByRole('searchbox', { name: 'Search servers' }).fill(search);
  const entry = find.getByRole('listitem').filter({ hasText: search });
  await expect(entry).toHaveCount(1);
  await entry.getByRole('button', { name: 'Install' }).click();
  return page.getByRole('dialog', { name: `Install ${title}` });
}

test('install dialog: risky arguments flagged before Install, hidden characters shown as escapes, Install still possible', async ({
  page,
  webHost,
}) => {
  const registry = await startRegistry(['--entries', path.join(REPO_ROOT, 'e2e', 'fixtures', 'registry', 'hostile-servers.json')]);
  try {
    await page.goto(webHost.url);
    await nav(page, 'Settings');
    await page.getByLabel('Registry URL', { exact: true }).fill(registry.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    await nav(page, 'Servers');

    // A javascript: repository URL is not a link; the privileged container is flagged three ways.
    await page.getByRole('button', { name: 'Find servers' }).click();
    const find = page.getByRole('dialog', { name: 'Find servers' });
    await expect(find.getByRole('listitem').filter({ hasText: 'com.example/npx-call' })).toBeVisible();
    await expect(find.getByRole('listitem').filter({ hasText: 'com.example/npx-call' }).getByRole('link')).toHaveCount(0);
    await expect(
      find.getByRole('listitem').filter({ hasText: 'com.example/node-require' }).getByRole('link', { name: 'Repository' }),
    ).toBeVisible();
    await page.keyboard.press('Escape');

    const docker = await openInstall(page, 'com.example/docker-host', 'com.example/docker-host');
    const risks = docker.getByRole('region', { name: 'Check before installing' });
    await expect(risks).toBeVisible();
    await expect(risks.getByRole('listitem')).toHaveText([
      'Extra rights: --privileged gives the container full control of this computer: every device, no isolation.',
      'Reaches your files: -v /:/host gives the container your computer’s whole file system.',
      'Runs other code: --entrypoint “sh” runs that program inside the container instead of the image’s own.',
    ]);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .include('[role="dialog"]')
      .analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    // Cancel, and Escape, return to Find servers' results (issue #41), the search kept.
    const dockerEntry = find.getByRole('listitem').filter({ hasText: 'com.example/docker-host' });
    await docker.getByRole('button', { name: 'Cancel' }).click();
    await expect(docker).toBeHidden();
    await expect(dockerEntry).toBeVisible();
    await expect(find.getByRole('searchbox', { name: 'Search servers' })).toHaveValue('com.example/docker-host');
    await dockerEntry.getByRole('button', { name: 'Install' }).click();
    await expect(docker).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(docker).toBeHidden();
    await expect(dockerEntry).toBeVisible();
    await find.getByRole('button', { name: 'Close' }).click();
    await expect(find).toBeHidden();

    // Hidden characters: escapes on screen, flagged, and installable (without starting it).
    const hidden = await openInstall(page, 'com.example/hidden-chars', 'com.example/hidden-chars');
    const line = hidden.getByTestId('install-command-line');
    await expect(line).toHaveText(
      'npx -y hidden-chars-server@1.0.0 --log=safe\\u{202E}txt.exe --allow\\u{200B}-all \\u{2066}--root=/\\u{2069}',
    );
    await expect(line.locator('mark.hidden-char')).toHaveCount(4);
    await expect(hidden.getByRole('region', { name: 'Check before installing' }).getByRole('listitem')).toHaveCount(3);
    await hidden.getByLabel('Start it now').uncheck();
    await hidden.getByRole('button', { name: 'Install' }).click();
    await expect(hidden).toBeHidden();

    // The Overview shows the same escapes.
    await page.getByRole('button', { name: 'hidden-chars', exact: true }).click();
    const overviewLine = page.locator('code').filter({ hasText: /^npx -y hidden-chars-server/ });
    await expect(overviewLine).toHaveText(
      'npx -y hidden-chars-server@1.0.0 --log=safe\\u{202E}txt.exe --allow\\u{200B}-all \\u{2066}--root=/\\u{2069}',
    );
    await expect(page.getByRole('region', { name: 'Check this command' }).getByRole('listitem')).toHaveCount(3);
  } finally {
    await registry.stop();
  }
});
