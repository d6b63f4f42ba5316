/**
 * The context meter and server instructions, end to end in web mode: the meter beside the message box
 * shows a number that follows the servers (stopped, started, chosen for the conversation), its
 * breakdown lists the servers, and a server's Overview shows its tools' cost and its instructions
 * with their switch — which the model's next request honours.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { formatTokens } from '@contract';
import { contractClient, expectServerStatus, openPage, serverRow } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();
const INSTRUCTED = path.join(REPO_ROOT, 'e2e', 'fixtures', 'instructed.mjs');

const meter = (page: Page) => page.getByRole('button', { name: /^≈ [\d.]+[kM]? tokens$/ });

/** Serious or critical axe findings (WCAG 2.1 A and AA) on what is on screen. */
async function axeProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

async function breakdownServers(page: Page, audit = false): Promise<string[]> {
  await meter(page).click();
  const breakdown = page.getByRole('dialog', { name: 'Context breakdown' });
  await expect(breakdown).toBeVisible();
  if (audit) expect(await axeProblems(page)).toEqual([]);
  const list = breakdown.getByRole('list', { name: 'Tool tokens by server' });
  const names = await list.locator('.context-meter-server').allTextContents();
  // A server whose instructions are sent shows their cost beside its tools' ("…, instructions ≈ 40").
  if (names.includes('instructed'))
    await expect(list.getByRole('listitem').filter({ hasText: 'instructed' })).toContainText(/instructions ≈ \d/);
  await page.keyboard.press('Escape');
  await expect(breakdown).toBeHidden();
  return names;
}

test('the meter counts what the next request carries and follows the servers; the Overview shows tools’ cost and instructions with their switch', async ({
  page,
  webHost,
}) => {
  const client = await contractClient(webHost);
  try {
    await page.goto(webHost.url);
    await pointAnthropicAt(page, llm().url);
    const instructed = await client.api.addServer({ name: 'instructed', command: process.execPath, args: [INSTRUCTED] });
    // A new server's instructions start off (issue #38); this test follows them once on.
    await client.api.setServerInstructions({ serverId: instructed.config.id, send: true });
    await openPage(page, 'Servers');
    await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: 'Everything (demo)' }).click();
    await expectServerStatus(page, 'Everything (demo)', 'ready');
    await expectServerStatus(page, 'instructed', 'ready');

    // A conversation with one exchange: the meter shows a number, and its breakdown lists the servers.
    await openPage(page, 'Chat');
    await llm().script([{ type: 'text', text: 'Hello back.' }]);
    await page.getByRole('textbox', { name: 'Message' }).fill('hello');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Hello back.')).toBeVisible();
    const [first] = await llm().messageRequests();
    expect(first.body!.system).toContain('<server-instructions server="instructed">');
    // What the meter shows is the host's count for this conversation.
    const [conversation] = (await client.api.getSnapshot()).chat.conversations;
    const counted = async () => `≈ ${formatTokens((await client.api.measureContext({ conversationId: conversation.id })).total)} tokens`;
    const all = await counted();
    await expect(meter(page)).toHaveText(all, { timeout: 15_000 });
    expect((await breakdownServers(page, true)).sort()).toEqual(['Everything (demo)', 'instructed']);

    // Stopping a server takes its tools out; starting it brings them back.
    await client.api.stopServer({ id: instructed.config.id });
    await expect(meter(page)).not.toHaveText(all, { timeout: 15_000 });
    await expect(meter(page)).toHaveText(await counted());
    expect(await breakdownServers(page)).toEqual(['Everything (demo)']);
    await client.api.startServer({ id: instructed.config.id });
    await expect(meter(page)).toHaveText(all, { timeout: 30_000 });

    // Choosing the conversation's servers changes what it offers.
    await page
      .locator('summary')
      .filter({ hasText: /^Tools:/ })
      .click();
    // A controlled switch: it changes once the host has the conversation's new choice.
    const everything = page.getByRole('switch', { name: 'Everything (demo)' });
    await everything.click();
    await expect(everything).not.toBeChecked();
    await expect(meter(page)).not.toHaveText(all, { timeout: 15_000 });
    expect(await breakdownServers(page)).toEqual(['instructed']);
    const onlyInstructed = await counted();
    await expect(meter(page)).toHaveText(onlyInstructed);

    // The Overview: the tools' cost, the instructions, and their switch.
    await openPage(page, 'Servers');
    await serverRow(page, 'instructed').getByRole('button', { name: 'instructed', exact: true }).click();
    await page.getByRole('tab', { name: /^Overview/ }).click();
    await expect(page.getByText(/^Tools: 1, ≈ [\d.]+k? tokens/)).toBeVisible();
    await expect(page.getByLabel('Instructions from instructed')).toContainText('Call instructed-echo with a message');
    const send = page.getByRole('switch', { name: 'Send instructions to the model' });
    await expect(send).toBeChecked();
    expect(await axeProblems(page)).toEqual([]);
    await send.click();
    await expect(send).not.toBeChecked();

    // Without them the system prompt is smaller, and the model's next request goes without them.
    await openPage(page, 'Chat');
    await expect(meter(page)).not.toHaveText(onlyInstructed, { timeout: 15_000 });
    await llm().script([{ type: 'text', text: 'Again.' }]);
    await page.getByRole('textbox', { name: 'Message' }).fill('again');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Again.')).toBeVisible();
    const last = (await llm().messageRequests()).at(-1)!;
    expect(last.body!.system ?? '').not.toContain('server-instructions');

    // The switch is kept.
    await page.reload();
    await openPage(page, 'Servers');
    await serverRow(page, 'instructed').getByRole('button', { name: 'instructed', exact: true }).click();
    await expect(page.getByRole('switch', { name: 'Send instructions to the model' })).not.toBeChecked();
  } finally {
    await client.close();
  }
});
