/**
 * Sampling and elicitation in web mode against server-everything, with the scripted Messages API as
 * the model: the tool call from the Tools panel makes the server ask; the dialog is answered by the
 * user; the tool result shows what the server got back.
 */
import type { Page } from '@playwright/test';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { ContractSocket, signIn } from '../support/raw-client';
import { test, expect, type WebHost } from '../support/web-host';

const SERVER = 'Everything (demo)';

const llm = useScriptedLlm();

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/** Points the host at the scripted API, adds server-everything, opens its Tools tab. */
async function setUp(page: Page, webHost: WebHost) {
  await page.goto(webHost.url);
  await pointAnthropicAt(page, llm().url);
  await nav(page, 'Servers');
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: SERVER }).click();
  const card = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: SERVER, exact: true });
  await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await card.getByRole('button', { name: SERVER, exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  return page.getByRole('list', { name: `Tools of ${SERVER}` });
}

async function runSampling(page: Page, tools: ReturnType<Page['getByRole']>, prompt: string) {
  await tools.getByRole('button', { name: 'trigger-sampling-request', exact: true }).click();
  const form = page.getByRole('form', { name: 'Run trigger-sampling-request' });
  await form.getByLabel('prompt', { exact: true }).fill(prompt);
  await form.getByRole('button', { name: 'Run' }).click();
}

/** The result region of the newest run (a tool error is named "The tool reported an error: …"). */
const result = (page: Page, tool: string) => page.getByRole('region', { name: new RegExp(`: ${tool} on Everything \\(demo\\)$`) });

test('sampling: edit the prompt, Approve, review, Send response; Reject gives -1; block gives a clear error', async ({ page, webHost }) => {
  const tools = await setUp(page, webHost);

  await test.step('approve an edited prompt and send the reviewed answer', async () => {
    await llm().script([{ type: 'text', text: 'Scripted sampling answer.' }]);
    await runSampling(page, tools, 'Tell a joke');
    const dialog = page.getByRole('dialog', { name: 'Sampling request' });
    await expect(dialog).toContainText('trigger-sampling-request');
    const text = dialog.getByRole('textbox', { name: 'Message 1 text' });
    await expect(text).toHaveValue('Resource trigger-sampling-request context: Tell a joke');
    await text.fill('Tell a short joke');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Response' })).toHaveValue('Scripted sampling answer.');
    await expect(dialog).toContainText('output tokens');
    await dialog.getByRole('button', { name: 'Send response' }).click();
    await expect(dialog).toBeHidden();
    await expect(result(page, 'trigger-sampling-request')).toContainText('Scripted sampling answer.');
    const [request] = await llm().messageRequests();
    expect(JSON.stringify(request.body?.messages)).toContain('Tell a short joke');
  });

  await test.step('Reject reaches the server as the user-rejected error', async () => {
    await runSampling(page, tools, 'Again');
    const dialog = page.getByRole('dialog', { name: 'Sampling request' });
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(dialog).toBeHidden();
    await expect(result(page, 'trigger-sampling-request')).toContainText('MCP error -1: User rejected sampling request');
  });

  await test.step('block policy: no dialog, a clear error', async () => {
    const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
      origin: webHost.origin,
      credential: (await signIn(webHost.url)).credential,
    });
    const snapshot = await socket.call(1, 'getSnapshot');
    const servers = (snapshot.result as { value: { servers: { config: { id: string; name: string } }[] } }).value.servers;
    const id = servers.find((s) => s.config.name === SERVER)!.config.id;
    expect((await socket.call(2, 'setSamplingPolicy', { serverId: id, mode: 'block' })).result.ok).toBe(true);
    socket.socket.close();
    await runSampling(page, tools, 'Blocked?');
    await expect(result(page, 'trigger-sampling-request')).toContainText('Sampling is blocked');
    await expect(page.getByRole('dialog', { name: 'Sampling request' })).toHaveCount(0);
  });

  await test.step('Settings › Server requests lists each decision, newest first, and follows new ones', async () => {
    await nav(page, 'Settings');
    const requests = page.getByRole('list', { name: 'Server requests' });
    const items = requests.locator(':scope > li');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toContainText("Blocked · decided by the server's policy");
    await expect(items.nth(1)).toContainText('Rejected at the request step · decided by you');
    // Rejected at the first step: each step as it happened, and nothing called approved.
    await items.nth(1).locator('summary').click();
    await expect(items.nth(1).getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveText([/^Request rejected by you/]);
    await expect(items.nth(1).locator('pre').first()).not.toContainText('approved');
    const sent = items.nth(2);
    await expect(sent).toContainText('sampling (LLM completion) · in trigger-sampling-request · Response sent');
    await sent.locator('summary').click();
    await expect(sent.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveText([
      /^Request approved by you \(prompt edited\)/,
      /^Response sent by you/,
    ]);
    await expect(sent.locator('pre').first()).toContainText('Tell a short joke');
    await expect(sent.locator('pre').nth(1)).toContainText('Scripted sampling answer.');

    // Another blocked request while the list is open: it appears without a reload.
    const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
      origin: webHost.origin,
      credential: (await signIn(webHost.url)).credential,
    });
    const snapshot = await socket.call(1, 'getSnapshot');
    const servers = (snapshot.result as { value: { servers: { config: { id: string; name: string } }[] } }).value.servers;
    const serverId = servers.find((s) => s.config.name === SERVER)!.config.id;
    expect(
      (await socket.call(2, 'runTool', { serverId, tool: 'trigger-sampling-request', args: { prompt: 'From the socket' } })).result.ok,
    ).toBe(true);
    socket.socket.close();
    await expect(items).toHaveCount(4);
    await expect(items.nth(0)).toContainText('Blocked');
  });
});

test('elicitation: defaults pre-filled, Accept echoes the values; Decline and Cancel reach the server', async ({ page, webHost }) => {
  const tools = await setUp(page, webHost);
  const run = async () => {
    await tools.getByRole('button', { name: 'trigger-elicitation-request', exact: true }).click();
    await page.getByRole('form', { name: 'Run trigger-elicitation-request' }).getByRole('button', { name: 'Run' }).click();
    return page.getByRole('dialog', { name: `${SERVER} asks…` });
  };

  const dialog = await run();
  await expect(dialog.getByRole('spinbutton', { name: 'Integer' })).toHaveValue('42');
  await expect(dialog.getByRole('textbox', { name: 'String with default' })).toHaveValue('It was a dark and stormy night.');
  await dialog.getByRole('textbox', { name: 'String (required)' }).fill('Ada Lovelace');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();
  await expect(result(page, 'trigger-elicitation-request')).toContainText('Name: Ada Lovelace');
  await expect(result(page, 'trigger-elicitation-request')).toContainText('Favorite Integer: 42');

  await (await run()).getByRole('button', { name: 'Decline' }).click();
  await expect(result(page, 'trigger-elicitation-request')).toContainText('User declined');
  await (await run()).getByRole('button', { name: 'Cancel' }).click();
  await expect(result(page, 'trigger-elicitation-request')).toContainText('User cancelled');
});
