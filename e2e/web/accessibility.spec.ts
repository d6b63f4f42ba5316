/**
 * Accessibility and contrast over every page and every dialog, in the light and the dark theme:
 * axe-core (WCAG 2.1 A and AA rules, color contrast included) must find no serious or critical
 * violation anywhere. Each page is also kept as a full-page screenshot per theme, and each dialog as
 * a screenshot of the window with it open, in the test's output folder
 * (test-results/artifacts/…/screenshots/<theme>/, not committed) and attached to the report, for
 * people to look at.
 *
 * Two halves, each with a host of its own, run side by side (the chat and the Servers page; a server's
 * tabs, Roots, Logs and Settings). The states are real: server-everything for tools, resources,
 * prompts, sampling and elicitation; the scripted Messages API for a chat with a tool call and a Markdown answer; a filesystem server
 * that asks for folders; the registry and bundle fixtures for the install dialogs.
 */
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { packBundle } from '../../src-main/test-support/bundle-fixtures';
import { hostApi } from '../support/host-api';
import { REPO_ROOT } from '../support/paths';
import { startRegistry } from '../support/registry';
import { useScriptedLlm } from '../support/scripted-llm';
import { expect, test, type WebHost } from '../support/web-host';

const llm = useScriptedLlm();
const SERVER = 'Everything (demo)';
const FILESYSTEM_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const MARKDOWN_ANSWER = [
  'The sum is **5**. See [the MCP site](https://modelcontextprotocol.io) for more.',
  '',
  '> A quoted line, with `inline code`.',
  '',
  '```js',
  'const sum = (a, b) => a + b; // adds',
  '```',
  '',
  '| a | b | sum |',
  '| - | - | --- |',
  '| 2 | 3 | 5 |',
].join('\n');

/** Every page and server tab, in the order each half of the sweep visits them. */
const CHAT_AND_SERVERS_PAGES = ['chat-first-run', 'chat', 'servers'];
const SERVER_DETAIL_AND_REST_PAGES = [
  'server-overview',
  'server-tools',
  'server-skills',
  'server-resources',
  'server-prompts',
  'server-logs',
  'roots',
  'logs',
  'settings',
];

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/**
 * Checks what is on screen with axe in both themes; a dialog is checked alone (the page behind it
 * is inert and dimmed). The themes differ only in colors, not in the DOM: the first theme runs every
 * WCAG rule, the second only the rules that read colors. The app follows the OS theme here, which
 * `emulateMedia` switches without a reload, so each state is reached once and seen in both.
 */
class Audit {
  readonly problems: string[] = [];
  readonly checked: string[] = [];
  readonly pages: string[] = [];
  constructor(
    private readonly page: Page,
    private readonly testInfo: TestInfo,
  ) {}

  async check(state: string, options: { dialog?: boolean; page?: boolean } = {}) {
    for (const theme of THEMES) {
      await this.showTheme(theme);
      let builder = new AxeBuilder({ page: this.page });
      builder =
        theme === THEMES[0]
          ? builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          : builder.withRules(['color-contrast', 'link-in-text-block']);
      if (options.dialog) builder = builder.include('[role="dialog"], [role="alertdialog"]');
      const { violations } = await builder.analyze();
      if (options.dialog) await this.keep(theme, `dialog-${state.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}`, false);
      if (options.page) await this.keep(theme, state, true);
      for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        const where = v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`)
          .join('; ');
        this.problems.push(`[${theme}] ${state}: ${v.id} (${v.impact}) ${v.help} — ${where}`);
      }
    }
    await this.showTheme(THEMES[0]);
    this.checked.push(state);
  }

  /** Checks the page, and keeps a full-page screenshot of it in both themes. */
  async checkPage(name: string) {
    await this.check(name, { page: true });
    this.pages.push(name);
  }

  private async showTheme(theme: Theme) {
    await this.page.emulateMedia({ colorScheme: theme });
    await expect.poll(() => this.page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'))).toBe(theme);
  }

  private async keep(theme: Theme, name: string, fullPage: boolean) {
    const file = this.testInfo.outputPath('screenshots', theme, `${name}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file, fullPage, animations: 'disabled' });
    await this.testInfo.attach(`${theme}-${name}.png`, { path: file, contentType: 'image/png' });
  }
}

test.use({ colorScheme: THEMES[0], viewport: { width: 1280, height: 900 } });
// Two halves, each with a host of its own, run side by side: the sweep is the longest spec.
test.describe.configure({ mode: 'parallel' });

/** A host with the scripted model and the test registry, the page open on it, the app following the OS theme. */
async function openHost(page: Page, webHost: WebHost) {
  const registry = await startRegistry();
  const host = await hostApi(webHost);
  await host.api.updateSettings({ theme: 'system', anthropicBaseUrl: llm().url, registryUrl: registry.url });
  await page.goto(webHost.url);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'system');
  return {
    host,
    registry,
    /** An API key and server-everything, Ready. */
    async addEverything() {
      await host.api.setApiKey({ apiKey: 'sk-ant-a11y' });
      const everything = await host.api.addPresetServer({ preset: 'everything' });
      await expect.poll(async () => (await host.server(everything.config.id)).runtime.status, { timeout: 60_000 }).toBe('ready');
    },
    async close() {
      await host.socket.close();
      await registry.stop();
    },
  };
}

test('the chat and the servers page, with their dialogs, in the light and the dark theme: no serious accessibility or contrast violation', async ({
  page,
  webHost,
}, testInfo) => {
  test.setTimeout(420_000);
  const audit = new Audit(page, testInfo);
  const opened = await openHost(page, webHost);
  try {
    await test.step('Chat on first run, and the command palette', async () => {
      await expect(page.getByRole('region', { name: 'Get started' })).toBeVisible();
      await audit.checkPage('chat-first-run');
      await page.keyboard.press('Control+k');
      await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
      await audit.check('command palette', { dialog: true });
      await page.keyboard.press('Escape');
    });

    await opened.addEverything();
    const log = page.getByRole('log', { name: 'Messages' });

    await test.step('Chat: a tool call waits for consent (Allow…), then a Markdown answer', async () => {
      await llm().script([
        { type: 'tool_use', text: 'Let me add those.', calls: [{ nameEndsWith: '__get-sum', input: { a: 2, b: 3 } }] },
        { type: 'text', text: MARKDOWN_ANSWER },
      ]);
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill('What is 2 + 3?');
      await message.press('Enter');
      const consent = page.getByRole('dialog', { name: /^Allow/ });
      await expect(consent).toBeVisible();
      await audit.check('tool consent dialog', { dialog: true });
      await consent.getByRole('button', { name: 'Allow once' }).click();
      await expect(log.getByRole('link', { name: 'the MCP site' })).toBeVisible();
      await expect(log.locator('blockquote')).toBeVisible();
      await audit.checkPage('chat');
    });

    await test.step('Chat: Attach and a prompt from /', async () => {
      await page.getByRole('button', { name: 'Attach', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Attach resources' })).toBeVisible();
      await audit.check('attach dialog', { dialog: true });
      await page.keyboard.press('Escape');
      const message = page.getByRole('textbox', { name: 'Message' });
      await message.fill('/args');
      await page
        .getByRole('listbox', { name: 'Prompts' })
        .getByRole('option', { name: /args-prompt/ })
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit.check('prompt dialog', { dialog: true });
      await page.keyboard.press('Escape');
    });

    await test.step('Servers, and its dialogs: add, edit, remove, import, find, install', async () => {
      await nav(page, 'Servers');
      const card = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: SERVER, exact: true });
      await expect(card).toHaveAttribute('data-status', 'ready');
      await audit.checkPage('servers');

      await page.getByRole('button', { name: 'Add server' }).click();
      const add = page.getByRole('dialog', { name: 'Add server' });
      await add.getByRole('button', { name: 'Save' }).click(); // empty: the errors show too
      await audit.check('add server dialog (local, with errors)', { dialog: true });
      await add.getByRole('radio', { name: 'Remote URL' }).check();
      await add.locator('summary', { hasText: 'Advanced' }).click();
      await audit.check('add server dialog (remote, advanced)', { dialog: true });
      // The form has changes: Escape asks before it drops them.
      await page.keyboard.press('Escape');
      const discard = page.getByRole('alertdialog', { name: 'Discard changes?' });
      await expect(discard).toBeVisible();
      await audit.check('discard changes confirmation', { dialog: true });
      await discard.getByRole('button', { name: 'Discard' }).click();
      await expect(add).toBeHidden();

      await card.getByRole('button', { name: 'Edit' }).click();
      await expect(page.getByRole('dialog', { name: /^Edit/ })).toBeVisible();
      await audit.check('edit server dialog', { dialog: true });
      await page.keyboard.press('Escape');

      await card.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await audit.check('remove server confirmation', { dialog: true });
      await page.keyboard.press('Escape');

      await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: SERVER, exact: true }).click();
      await expect(page.getByRole('alertdialog', { name: `Add another ${SERVER}?` })).toBeVisible();
      await audit.check('duplicate quick-add confirmation', { dialog: true });
      await page.keyboard.press('Escape');
      await expect(page.getByRole('alertdialog')).toBeHidden();

      await page.getByRole('button', { name: 'Import servers' }).click();
      const importing = page.getByRole('dialog', { name: 'Import servers' });
      await importing
        .getByRole('textbox')
        .first()
        .fill(JSON.stringify({ mcpServers: { imported: { command: 'node', args: ['x.mjs'] }, broken: {} } }));
      await importing.getByRole('button', { name: 'Preview' }).click();
      await expect(importing.getByRole('table')).toBeVisible();
      await audit.check('import dialog with its preview', { dialog: true });
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Find servers' }).click();
      const find = page.getByRole('dialog', { name: 'Find servers' });
      await find.getByRole('searchbox', { name: 'Search servers' }).fill('everything');
      await expect(find.getByRole('listitem', { name: 'Everything' })).toBeVisible();
      await audit.check('find servers dialog', { dialog: true });
      await find.getByRole('listitem', { name: 'Everything' }).getByRole('button', { name: 'Install' }).click();
      await expect(page.getByRole('dialog', { name: 'Install Everything' })).toBeVisible();
      await audit.check('install dialog (registry entry)', { dialog: true });
      await page.keyboard.press('Escape'); // back to Find servers' results
      await expect(find.getByRole('listitem', { name: 'Everything' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(find).toBeHidden();

      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Install bundle' }).click();
      await (await chooser).setFiles(packBundle('notes'));
      await expect(page.getByRole('dialog', { name: 'Install Notes (bundle)' })).toBeVisible();
      await audit.check('install dialog (bundle)', { dialog: true });
      await page.keyboard.press('Escape');
    });
  } finally {
    await opened.close();
  }

  expect(audit.problems, audit.problems.join('\n')).toEqual([]);
  // Every page was checked and kept as a screenshot, and the dialogs along the way.
  expect(audit.pages).toEqual(CHAT_AND_SERVERS_PAGES);
  expect(audit.checked.length - audit.pages.length).toBe(14);
});

test('a server’s tabs, roots, logs and settings, with their dialogs, in the light and the dark theme: no serious accessibility or contrast violation', async ({
  page,
  webHost,
}, testInfo) => {
  test.setTimeout(420_000);
  const audit = new Audit(page, testInfo);
  const opened = await openHost(page, webHost);
  const { host } = opened;
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-a11y-')));
  try {
    await opened.addEverything();
    await test.step('a server’s detail, every tab; sampling and elicitation dialogs', async () => {
      await nav(page, 'Servers');
      await page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: SERVER, exact: true }).click();
      await audit.checkPage('server-overview');
      await page.getByRole('tab', { name: /^Tools\b/ }).click();
      const tools = page.getByRole('list', { name: `Tools of ${SERVER}` });
      await tools.getByRole('button', { name: 'get-sum', exact: true }).click();
      const form = page.getByRole('form', { name: 'Run get-sum' });
      await form.getByLabel('a', { exact: true }).fill('2');
      await form.getByLabel('b', { exact: true }).fill('3');
      await form.getByRole('button', { name: 'Run' }).click();
      await expect(page.getByRole('region', { name: `Result: get-sum on ${SERVER}` })).toBeVisible();
      await audit.checkPage('server-tools');

      // Two requests, one audited stage each: the server gives up on a request after 60 s, which two
      // stages audited in two themes can exceed on a loaded box.
      await tools.getByRole('button', { name: 'trigger-sampling-request', exact: true }).click();
      const sampling = page.getByRole('form', { name: 'Run trigger-sampling-request' });
      await sampling.getByLabel('prompt', { exact: true }).fill('Tell a joke');
      const samplingDialog = page.getByRole('dialog', { name: 'Sampling request' });
      await sampling.getByRole('button', { name: 'Run' }).click();
      await expect(samplingDialog).toBeVisible();
      await audit.check('sampling dialog (request)', { dialog: true });
      await samplingDialog.getByRole('button', { name: 'Reject' }).click();
      await expect(samplingDialog).toBeHidden();

      await llm().script([{ type: 'text', text: 'A sampled answer.' }]);
      await sampling.getByRole('button', { name: 'Run' }).click();
      await samplingDialog.getByRole('button', { name: 'Approve' }).click();
      await expect(samplingDialog.getByRole('button', { name: 'Send response' })).toBeVisible();
      await audit.check('sampling dialog (review)', { dialog: true });
      await samplingDialog.getByRole('button', { name: 'Send response' }).click();
      await expect(samplingDialog).toBeHidden();

      await tools.getByRole('button', { name: 'trigger-elicitation-request', exact: true }).click();
      await page.getByRole('form', { name: 'Run trigger-elicitation-request' }).getByRole('button', { name: 'Run' }).click();
      const elicitation = page.getByRole('dialog', { name: `${SERVER} asks…` });
      await expect(elicitation).toBeVisible();
      await audit.check('elicitation dialog', { dialog: true });
      await elicitation.getByRole('button', { name: 'Cancel' }).click();

      // The Skills tab of a server without skills says so plainly.
      await page.getByRole('tab', { name: 'Skills', exact: true }).click();
      await expect(page.getByText(`${SERVER} does not offer skills`, { exact: false })).toBeVisible();
      await audit.checkPage('server-skills');
      await page.getByRole('tab', { name: /^Resources/ }).click();
      await page
        .getByRole('list', { name: `Resources of ${SERVER}` })
        .getByRole('button', { name: 'features.md', exact: true })
        .click();
      await page.getByRole('button', { name: 'Read', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
      await audit.checkPage('server-resources');
      await page.getByRole('tab', { name: /^Prompts/ }).click();
      await page
        .getByRole('list', { name: `Prompts of ${SERVER}` })
        .getByRole('button', { name: 'simple-prompt' })
        .click();
      await page.getByRole('button', { name: 'Get prompt' }).click();
      await audit.checkPage('server-prompts');
      await page.getByRole('tab', { name: 'Logs', exact: true }).click();
      await audit.checkPage('server-logs');
    });

    await test.step('Roots: Add folder, and a server asking to share folders', async () => {
      await nav(page, 'Roots');
      await page.getByRole('button', { name: 'Add folder', exact: true }).click();
      const addFolder = page.getByRole('dialog', { name: 'Add folder' });
      await addFolder.getByRole('textbox', { name: 'Folder path' }).fill(folder);
      await audit.check('add folder dialog', { dialog: true });
      await addFolder.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(addFolder).toBeHidden();
      await host.api.addServer({ name: 'files', command: process.execPath, args: [FILESYSTEM_SERVER] });
      const share = page.getByRole('dialog', { name: 'Share folders' });
      await expect(share).toBeVisible({ timeout: 60_000 });
      await audit.check('share folders dialog', { dialog: true });
      // Every server that asks gets its answer (one dialog each, or one for all).
      await expect(async () => {
        if (await share.isVisible()) await share.getByRole('button', { name: 'Share', exact: true }).click({ timeout: 2_000 });
        await expect(share).toBeHidden({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await audit.checkPage('roots');
    });

    await test.step('Logs', async () => {
      await nav(page, 'Logs');
      await page.getByRole('tab', { name: 'Protocol', exact: true }).click();
      await expect(page.getByRole('list', { name: 'Protocol entries' }).getByRole('listitem').first()).toBeVisible();
      await audit.checkPage('logs');
    });

    await test.step('Settings, and Add provider', async () => {
      await nav(page, 'Settings');
      await expect(page.getByTestId('host-version')).toBeVisible();
      await audit.checkPage('settings');
      await page.getByRole('button', { name: 'Add provider' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit.check('add provider dialog', { dialog: true });
      await page.keyboard.press('Escape');
    });
  } finally {
    await opened.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }

  expect(audit.problems, audit.problems.join('\n')).toEqual([]);
  expect(audit.pages).toEqual(SERVER_DETAIL_AND_REST_PAGES);
  expect(audit.checked.length - audit.pages.length).toBe(6);
});
