/**
 * Per-tool control and tool sets, end to end in web mode: a tool turned off in the Tools tab, a set
 * made in Settings, chosen in the chat header; the scripted Messages API shows what the model got.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { hostApi } from '../support/host-api';
import { useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';
import { choose, optionNames } from '../support/choose';

const llm = useScriptedLlm();
const SERVER = 'Everything (demo)';

/** Serious or critical axe findings (WCAG 2.1 A/AA) inside `selector`. */
async function axeProblems(page: Page, selector: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include(selector).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

test('a tool turned off and a chosen tool set: the model request carries only the set’s offered tools', async ({ page, webHost }) => {
  const host = await hostApi(webHost);
  try {
    await host.api.updateSettings({ anthropicBaseUrl: llm().url });
    await host.api.setApiKey({ apiKey: 'sk-ant-tool-sets' });
    const everything = await host.api.addPresetServer({ preset: 'everything' });
    await expect.poll(async () => (await host.server(everything.config.id)).runtime.status, { timeout: 60_000 }).toBe('ready');
  } finally {
    await host.socket.close();
  }
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
  await page.goto(webHost.url);

  await test.step('the Tools tab: turn echo off', async () => {
    await nav('Servers').click();
    await page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: SERVER, exact: true }).click();
    await page.getByRole('tab', { name: /^Tools\b/ }).click();
    const echo = page.getByRole('switch', { name: 'Offer echo to the model', exact: true });
    await expect(echo).toHaveAttribute('aria-checked', 'true');
    await echo.click();
    await expect(echo).toHaveAttribute('aria-checked', 'false');
  });

  await test.step('Settings › Tool sets: a set of get-sum and echo', async () => {
    await nav('Settings').click();
    const section = page.getByRole('region', { name: 'Tool sets' });
    await section.getByRole('button', { name: 'New tool set' }).click();
    const form = section.getByRole('form', { name: 'New tool set' });
    await form.getByLabel('Tool set name').fill('Math');
    const tools = form.getByRole('list', { name: `Tools of ${SERVER}` });
    await tools.getByRole('switch', { name: 'Include get-sum', exact: true }).click();
    await tools.getByRole('switch', { name: 'Include echo', exact: true }).click();
    await form.getByRole('button', { name: 'Save tool set' }).click();
    await expect(section.getByRole('list', { name: 'Tool sets' })).toContainText('Math');
    expect(await axeProblems(page, '.tool-sets-settings')).toEqual([]);
  });

  await test.step('the chat header: choose the set; the picker counts the tools offered', async () => {
    await nav('Chat').click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    const picker = page.getByRole('combobox', { name: 'Tool set', exact: true });
    await expect.poll(() => optionNames(picker)).toEqual(['All offered tools', 'Math']);
    await choose(picker, 'Math');
    await expect(page.getByText(/Tools: 1 of \d+ tools offered \(set Math\)/)).toBeVisible();
    // The picker lists each tool with its switch (echo stays off there too).
    await page.getByText(/^Tools: /).click();
    await expect(page.getByRole('switch', { name: 'Offer echo to the model', exact: true })).toHaveAttribute('aria-checked', 'false');
    expect(await axeProblems(page, '.chat-head')).toEqual([]);
  });

  await test.step('the model request carries get-sum only', async () => {
    await llm().script([{ type: 'text', text: 'Only one tool here.' }]);
    await page.getByRole('textbox', { name: 'Message' }).fill('What can you use?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Only one tool here.');
    const request = (await llm().messageRequests()).at(-1)!;
    expect(request.body?.tools?.map((t) => t.name)).toEqual(['Everything_demo__get-sum']);
  });
});
