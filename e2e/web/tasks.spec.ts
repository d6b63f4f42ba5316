/**
 * Tasks in web mode against server-everything, through the UI: `simulate-research-query` (a tool
 * call the server runs as a task, with status messages and an elicitation while it needs input),
 * the Tasks tab (running and recent tasks, Cancel sending `tasks/cancel`), with e2e/fixtures/task-lab.mjs
 * a task outliving a page reload and a task that fails, and `trigger-sampling-request-async` / `trigger-elicitation-request-async` (requests of the
 * server that Patchbay runs as tasks while the usual dialogs answer them).
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { test, expect, type WebHost } from '../support/web-host';
import { choose } from '../support/choose';

const SERVER = 'Everything (demo)';
const LAB = 'Task lab';
const TASK_LAB = path.join(REPO_ROOT, 'e2e/fixtures/task-lab.mjs');

const llm = useScriptedLlm();

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const card = (page: Page, server = SERVER) =>
  page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: server, exact: true });
const result = (page: Page, tool: string, server = SERVER) =>
  page.getByRole('region', { name: new RegExp(`: ${tool} on ${server.replace(/[()]/g, '\\$&')}$`) });
/** The Tasks tab (its name carries the count of running tasks). */
const tasksTab = (page: Page) => page.getByRole('tab', { name: /^Tasks( \d+)?$/ });
const taskRow = (page: Page, what: string, state: string) => page.getByRole('listitem', { name: `Task ${what}: ${state}`, exact: true });

/** Adds server-everything (Quick add) once, waiting until it is ready. */
async function addEverything(page: Page, webHost: WebHost): Promise<void> {
  await page.goto(webHost.url);
  await nav(page, 'Servers');
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: SERVER }).click();
  await expect(card(page)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

/** Opens one of the server's tabs. */
async function openTab(page: Page, tab: string, server = SERVER): Promise<void> {
  await nav(page, 'Servers');
  const back = page.getByRole('button', { name: '← All servers' });
  if (await back.isVisible()) await back.click();
  await card(page, server).getByRole('button', { name: server, exact: true }).click();
  // A tab's name may end in its count ("Tools 12", "Tasks 1").
  await page.getByRole('tab', { name: new RegExp(`^${tab}\\b`) }).click();
}

/** Selects a tool in the Tools tab and runs it, with `fill` filling its form first. */
async function runTool(
  page: Page,
  tool: string,
  fill?: (form: ReturnType<Page['getByRole']>) => Promise<void>,
  server = SERVER,
): Promise<void> {
  await page
    .getByRole('list', { name: `Tools of ${server}` })
    .getByRole('button', { name: tool, exact: true })
    .click();
  const form = page.getByRole('form', { name: `Run ${tool}` });
  await fill?.(form);
  await form.getByRole('button', { name: 'Run' }).click();
}

test('simulate-research-query runs as a task: it needs input (the dialog), outlives a reload, completes; the Tasks tab shows it', async ({
  page,
  webHost,
}) => {
  await addEverything(page, webHost);
  await openTab(page, 'Tools');
  await expect(page.getByText('Runs as a task: you can follow and cancel it in the Tasks tab.')).toHaveCount(0);
  await page
    .getByRole('list', { name: `Tools of ${SERVER}` })
    .getByRole('button', { name: 'simulate-research-query', exact: true })
    .click();
  await expect(page.getByText('Runs as a task: you can follow and cancel it in the Tasks tab.')).toBeVisible();
  await runTool(page, 'simulate-research-query', async (form) => {
    await form.getByLabel('topic', { exact: true }).fill('python');
    await form.getByLabel('ambiguous', { exact: true }).check();
  });

  const dialog = page.getByRole('dialog', { name: `${SERVER} asks…` });
  await test.step('the task needs input: the server’s question comes up, the call says where the task stands', async () => {
    await expect(dialog).toContainText('could have multiple interpretations');
    // Behind the dialog (a modal hides the rest from assistive technology, hence CSS here).
    const line = page.locator('.task-line');
    await expect(line).toHaveAttribute('data-state', 'input_required');
    await expect(line).toContainText('Needs input');
    await expect(line).toContainText('Found multiple interpretations for "python"');
  });

  await test.step('after a reload the question is still there, and the task still waits for it', async () => {
    await page.reload();
    await expect(dialog).toContainText('could have multiple interpretations');
    await choose(dialog.getByLabel('Clarification'), 'Python snake species');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the Tasks tab shows it completed, run by the user', async () => {
    await openTab(page, 'Tasks');
    const done = taskRow(page, 'simulate-research-query', 'Completed');
    await expect(done).toBeVisible({ timeout: 30_000 });
    await expect(done).toContainText('run by you');
    await expect(page.getByText('No task is running.')).toBeVisible();
  });
});

test('a task that never ends by itself outlives a reload; Cancel in the Tasks tab sends tasks/cancel; a failed task says why', async ({
  page,
  webHost,
}) => {
  await page.goto(webHost.url);
  await nav(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const add = page.getByRole('dialog');
  await add.getByLabel('Name', { exact: true }).fill(LAB);
  await add.getByLabel('Command', { exact: true }).fill(process.execPath);
  await add.getByLabel('Arguments', { exact: true }).fill(TASK_LAB);
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(card(page, LAB)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await openTab(page, 'Tools', LAB);
  await runTool(page, 'count-sheep', undefined, LAB);
  await expect(page.locator('.task-line')).toContainText(/Working — Counted \d+ sheep/);

  await test.step('after a reload the call and its task still run, followed live', async () => {
    await page.reload();
    await openTab(page, 'Tools', LAB);
    await page
      .getByRole('list', { name: `Tools of ${LAB}` })
      .getByRole('button', { name: 'count-sheep', exact: true })
      .click();
    await expect(page.getByRole('status', { name: 'Task status' })).toContainText(/Counted \d+ sheep/);
    await tasksTab(page).click();
    await expect(tasksTab(page)).toHaveText('Tasks 1');
  });

  await test.step('Cancel: tasks/cancel goes to the server, the task and the call end as cancelled', async () => {
    const running = taskRow(page, 'count-sheep', 'Working');
    await expect(running).toContainText(/Counted \d+ sheep/);
    await running.getByRole('button', { name: 'Cancel' }).click();
    await expect(taskRow(page, 'count-sheep', 'Cancelled')).toContainText('Cancelled by the user');
    await expect(page.getByText('No task is running.')).toBeVisible();
    await expect(tasksTab(page)).toHaveText('Tasks');
    await page.getByRole('tab', { name: 'Logs', exact: true }).click();
    await page.getByRole('tab', { name: 'Protocol', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Protocol entries' }).getByRole('button', { name: /sent tasks\/cancel #/ })).toHaveCount(1);
  });

  await test.step('a task that fails: the result says why, and so does the Tasks tab', async () => {
    await page.getByRole('tab', { name: /^Tools\b/ }).click();
    await runTool(page, 'doomed', undefined, LAB);
    await expect(result(page, 'doomed', LAB)).toContainText('The disk is full');
    await tasksTab(page).click();
    await expect(taskRow(page, 'doomed', 'Failed')).toContainText('The disk is full');
  });
});

test('the server’s async sampling and elicitation requests run as tasks, answered in the usual dialogs', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await pointAnthropicAt(page, llm().url);
  await addEverything(page, webHost);
  await openTab(page, 'Tools');

  await test.step('trigger-sampling-request-async: Approve, review, Send response; the server polls its task to the answer', async () => {
    await llm().script([{ type: 'text', text: 'Scripted async answer.' }]);
    await runTool(page, 'trigger-sampling-request-async', async (run) => {
      await run.getByLabel('prompt', { exact: true }).fill('Tell me');
    });
    const dialog = page.getByRole('dialog', { name: 'Sampling request' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Response' })).toHaveValue('Scripted async answer.');
    await dialog.getByRole('button', { name: 'Send response' }).click();
    await expect(dialog).toBeHidden();
    await expect(result(page, 'trigger-sampling-request-async')).toContainText('Scripted async answer.');
    await expect(result(page, 'trigger-sampling-request-async')).toContainText('[COMPLETED]');
  });

  await test.step('trigger-elicitation-request-async: Decline reaches the server through its task', async () => {
    await runTool(page, 'trigger-elicitation-request-async');
    const dialog = page.getByRole('dialog', { name: `${SERVER} asks…` });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(dialog).toBeHidden();
    await expect(result(page, 'trigger-elicitation-request-async')).toContainText('[DECLINED]');
  });

  await test.step('the Tasks tab lists both, run by Patchbay for the server', async () => {
    await tasksTab(page).click();
    for (const what of ['Sampling request', 'Question for you']) {
      const row = taskRow(page, what, 'Completed');
      await expect(row).toContainText('run by Patchbay for the server');
    }
  });
});
