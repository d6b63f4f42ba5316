/**
 * Tools and consent, end to end in web mode against real servers.
 *
 * The Tools panel runs against the production build (`webHost`). For the consent dialog the test acts
 * as the model itself, so each call is exactly the one it wants: the `toolsHost` fixture runs
 * e2e/fixtures/tools-test-host.ts — the same core and web server, started in-process, taking model calls
 * over the harness's stdin (see that file for why this keeps the shipped renderer unable to bypass
 * consent). chat.spec.ts drives the same consent path through the chat loop and the scripted LLM.
 */
import AxeBuilder from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { WS_PATH } from '@contract';
import { choose } from '../support/choose';
import { REPO_ROOT } from '../support/paths';
import { ContractSocket, signIn } from '../support/raw-client';
import { test as webTest, expect } from '../support/web-host';

const NODE = process.execPath;
const FIXTURES = path.join(REPO_ROOT, 'e2e', 'fixtures');
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

interface ModelCallDone {
  status: string;
  text: string;
  decidedBy: string;
}

/** The harness process: its URL, and commands over its stdin (answers come back on its stdout). */
class ToolsHost {
  private next = 1;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly log: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly tempRoot: string,
  ) {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line.startsWith('HARNESS ')) continue;
        const message = JSON.parse(line.slice(8)) as { id: number; value?: unknown; error?: string };
        const waiter = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.value);
      }
    });
  }

  static async start(): Promise<ToolsHost> {
    const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-tools-'));
    const child = spawn(NODE, ['--import', 'tsx', path.join(FIXTURES, 'tools-test-host.ts'), path.join(tempRoot, 'data')], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const log: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the tools harness did not start:\n${out}\n${log.join('')}`)), 60_000);
      child.stdout!.on('data', function onData(chunk: Buffer) {
        out += chunk.toString();
        const match = /Patchbay web mode: (\S+)/.exec(out);
        if (!match) return;
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`the tools harness exited (${code}):\n${out}\n${log.join('')}`)));
    });
    const host = new ToolsHost(child, url, tempRoot);
    host.log.push(...log);
    child.stderr!.on('data', (chunk: Buffer) => host.log.push(chunk.toString()));
    return host;
  }

  private send<T>(command: object): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }

  /** Adds a server and resolves once it is ready. */
  addServer(name: string, args: string[]): Promise<unknown> {
    return this.send({ op: 'addServer', input: { name, command: NODE, args } });
  }

  /** What the chat loop does: a model-initiated call, through the consent broker. */
  modelCall(server: string, tool: string, args: Record<string, unknown>): Promise<ModelCallDone> {
    return this.send({ op: 'modelCall', server, tool, args });
  }

  async dispose(): Promise<void> {
    const exited = new Promise((resolve) => (this.child.exitCode !== null ? resolve(undefined) : this.child.once('exit', resolve)));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(this.tempRoot, { recursive: true, force: true });
  }
}

const test = webTest.extend<{ toolsHost: ToolsHost }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object.
  toolsHost: async ({}, use, testInfo) => {
    const host = await ToolsHost.start();
    try {
      await use(host);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('tools-host-output.txt', { body: host.log.join(''), contentType: 'text/plain' });
      await host.dispose();
    }
  },
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

async function openTools(page: Page, server: string) {
  await nav(page, 'Servers');
  const card = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: server, exact: true });
  await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await card.getByRole('button', { name: server, exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  return page.getByRole('list', { name: `Tools of ${server}` });
}

test('tools panel: run get-sum from the form, see an image, follow and cancel a long operation', async ({ page, webHost }) => {
  const server = 'Everything (demo)';
  await page.goto(webHost.url);
  await nav(page, 'Servers');
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: server }).click();
  const tools = await openTools(page, server);

  await test.step('get-sum from the generated form', async () => {
    await tools.getByRole('button', { name: 'get-sum', exact: true }).click();
    await expect(page.getByText('Hints from the server', { exact: true })).toBeVisible();
    const form = page.getByRole('form', { name: 'Run get-sum' });
    await form.getByRole('button', { name: 'Run' }).click();
    await expect(form.getByLabel('a', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await form.getByLabel('a', { exact: true }).fill('2');
    await form.getByLabel('b', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('region', { name: `Result: get-sum on ${server}` })).toContainText('The sum of 2 and 3 is 5.');
  });

  await test.step('get-tiny-image renders an image', async () => {
    await tools.getByRole('button', { name: 'get-tiny-image', exact: true }).click();
    await page.getByRole('form', { name: 'Run get-tiny-image' }).getByRole('button', { name: 'Run' }).click();
    const image = page.getByRole('img', { name: /^Image from get-tiny-image on / });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  await test.step('trigger-long-running-operation shows progress and can be cancelled', async () => {
    await tools.getByRole('button', { name: 'trigger-long-running-operation', exact: true }).click();
    const form = page.getByRole('form', { name: 'Run trigger-long-running-operation' });
    await form.getByLabel('duration', { exact: true }).fill('60');
    await form.getByLabel('steps', { exact: true }).fill('60');
    await form.getByRole('button', { name: 'Run' }).click();
    const running = page.getByRole('group', { name: `Running: trigger-long-running-operation on ${server}` });
    await expect(running).toBeVisible();
    const bar = running.getByRole('progressbar', { name: 'Progress of trigger-long-running-operation' });
    await expect(bar).toHaveAttribute('aria-valuemax', '60');
    await expect(running).toContainText(/[1-9]\d* of 60/);
    await expect(running).toContainText(/Running .* · \d/);
    await running.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('region', { name: `Cancelled: trigger-long-running-operation on ${server}` })).toContainText(
      'was cancelled',
    );
    await expect(running).toBeHidden();
  });
});

test('consent: Deny, Allow once, Always allow, Revoke — one dialog at a time, surviving a reload', async ({ page, toolsHost }) => {
  await page.goto(toolsHost.url);
  await toolsHost.addServer('everything', [EVERYTHING, 'stdio']);
  const dialog = page.getByRole('dialog', { name: 'Allow everything to run get-sum?' });

  await test.step('Deny → the model gets a declined result', async () => {
    const call = toolsHost.modelCall('everything', 'get-sum', { a: 1, b: 2 });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Returns the sum of two numbers');
    await expect(dialog.getByLabel('Arguments')).toHaveValue(/"a": 1/);
    await dialog.getByRole('button', { name: 'Deny' }).click();
    expect(await call).toMatchObject({
      status: 'denied',
      decidedBy: 'user',
      text: 'The user declined to run tool "get-sum" on server "everything".',
    });
    await expect(dialog).toBeHidden();
  });

  await test.step('nothing a renderer can send over the bridge lets a pending model call through', async () => {
    const call = toolsHost.modelCall('everything', 'get-sum', { a: 1, b: 1 });
    await expect(dialog).toBeVisible();
    const url = new URL(toolsHost.url);
    const { credential } = await signIn(toolsHost.url);
    const socket = await ContractSocket.connect(`ws://${url.host}${WS_PATH}`, { origin: url.origin, credential });
    try {
      const codes = [];
      for (const [id, method, input] of [
        [1, 'runTool', { serverId: 'x', tool: 'get-sum', args: { a: 1, b: 1 }, origin: 'model' }],
        [2, 'callToolWithConsent', { tool: 'get-sum', origin: 'model' }],
        [3, 'answerQuestion', { id: 'made-up', answer: { kind: 'tool', decision: 'always_allow' } }],
      ] as const) {
        const frame = await socket.call(id, method, input);
        codes.push(frame.result.ok ? 'ok' : frame.result.error.code);
      }
      expect(codes).toEqual(['invalid_input', 'unknown_method', 'invalid_input']);
    } finally {
      await socket.close();
    }
    await expect(dialog).toContainText('Request 1 of 1');
    await dialog.getByRole('button', { name: 'Deny' }).click();
    expect((await call).status).toBe('denied');
  });

  await test.step('requests queue with a count; a reload shows them again (they live in the core)', async () => {
    const first = toolsHost.modelCall('everything', 'get-sum', { a: 2, b: 3 });
    await expect(dialog).toBeVisible();
    const second = toolsHost.modelCall('everything', 'echo', { message: 'hi' });
    await expect(dialog).toContainText('Request 1 of 2');
    await page.reload();
    await expect(dialog).toContainText('Request 1 of 2');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    expect(await first).toMatchObject({ status: 'ok', text: 'The sum of 2 and 3 is 5.' });
    const echo = page.getByRole('dialog', { name: 'Allow everything to run echo?' });
    await expect(echo).toContainText('Request 1 of 1');
    await echo.getByRole('button', { name: 'Deny' }).click();
    expect((await second).status).toBe('denied');
  });

  await test.step('Allow once does not stick; Always allow (with edited arguments) does', async () => {
    const asked = toolsHost.modelCall('everything', 'get-sum', { a: 4, b: 4 });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Arguments').fill('{"a": 10, "b": 5}');
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    expect(await asked).toMatchObject({ status: 'ok', text: 'The sum of 10 and 5 is 15.', decidedBy: 'user' });
    expect(await toolsHost.modelCall('everything', 'get-sum', { a: 1, b: 1 })).toMatchObject({ status: 'ok', decidedBy: 'policy' });
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('Revoke in Settings → the next call asks again; the audit trail shows who decided', async () => {
    await nav(page, 'Settings');
    const decision = page.getByRole('list', { name: 'Standing decisions' }).getByRole('listitem', { name: 'everything › get-sum' });
    await expect(decision).toContainText('Always allow');
    await decision.getByRole('button', { name: 'Revoke' }).click();
    await expect(decision).toHaveCount(0);
    const asked = toolsHost.modelCall('everything', 'get-sum', { a: 7, b: 7 });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Deny' }).click();
    expect((await asked).status).toBe('denied');
    const calls = page.getByRole('list', { name: 'Tool calls' });
    await expect(calls.getByRole('listitem').first()).toContainText('denied by you');
    await expect(calls).toContainText('allowed by a standing decision');
  });
});

test('consent: a tool that changes after approval is suspended and the dialog shows the change', async ({ page, toolsHost }) => {
  await page.goto(toolsHost.url);
  await toolsHost.addServer('notes', [path.join(FIXTURES, 'rug-pull.mjs')]);
  const dialog = page.getByRole('dialog', { name: 'Allow notes to run read-notes?' });

  const first = toolsHost.modelCall('notes', 'read-notes', { topic: 'plans' });
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toContainText('changed since you allowed it');
  await dialog.getByRole('button', { name: 'Always allow' }).click();
  expect(await first).toMatchObject({ status: 'ok', text: 'notes about plans' });

  // The server rewrote the tool after that call (list_changed): the Tools panel shows the approval suspended.
  const tools = await openTools(page, 'notes');
  // Once marked suspended (a mark for the eye only), the tool is still found by its name.
  await expect(tools.locator('li:has([data-policy="suspended"])')).toHaveCount(1);
  await tools.getByRole('button', { name: 'read-notes', exact: true }).click();
  await expect(page.getByText(/^Suspended: the server changed this tool/)).toBeVisible();

  const again = toolsHost.modelCall('notes', 'read-notes', { topic: 'again' });
  await expect(dialog).toContainText('This tool changed since you allowed it.');
  const diff = dialog.getByLabel("What changed in the tool's definition");
  await expect(diff).toContainText('removed: −   "description": "Reads your notes.",');
  await expect(diff).toContainText('~/.ssh/id_rsa');
  await expect(diff).toContainText('"forward_to"');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect((await again).status).toBe('denied');
  await expect(dialog).toBeHidden();
});

/** Serious or critical axe findings (WCAG 2.1 A/AA) inside `selector`, in the light and the dark theme. */
async function axeInBothThemes(page: Page, selector: string): Promise<string[]> {
  const problems: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .include(selector)
      .analyze();
    problems.push(
      ...violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${colorScheme}: ${v.id}: ${v.help}`),
    );
  }
  return problems;
}

test('rules: Add rule from the Tools tab, Settings › Rules with a line that does not parse, Test a rule, the consent dialog naming the rule', async ({
  page,
  toolsHost,
}) => {
  await page.goto(toolsHost.url);
  await toolsHost.addServer('everything', [EVERYTHING, 'stdio']);
  const tools = await openTools(page, 'everything');

  await test.step('Add rule, built in words beside the tool', async () => {
    await tools.getByRole('button', { name: 'echo', exact: true }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const add = page.getByRole('dialog', { name: 'Add rule' });
    await choose(add.getByRole('combobox', { name: 'Condition' }), 'matches the pattern');
    await add.getByLabel('Pattern').fill('secret');
    await choose(add.getByRole('combobox', { name: 'Decision' }), 'Ask');
    await expect(add).toContainText('ask tool echo on everything if message matches /secret/');
    expect(await axeInBothThemes(page, '[role="dialog"]')).toEqual([]);
    await add.getByRole('button', { name: 'Add rule' }).click();
    await expect(add).toBeHidden();
  });

  const rules = page.getByRole('region', { name: 'Rules' });
  await test.step('Settings › Rules: the rule in words; a line that does not parse is refused with its line and column', async () => {
    await nav(page, 'Settings');
    await expect(rules).toContainText("When `echo` (on `everything`)'s `message` matches /secret/ → Ask");
    const text = rules.getByLabel('Your rules');
    await text.fill('ask tool echo on everything if message matches /secret/\ndeny tool get-sum if a > lots');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(rules.getByRole('alert')).toContainText('Line 2, column 26: Expected a number, found "lots"');
    await expect(rules.getByRole('status')).toHaveText('Not saved: the previous rules stay in force');
    await text.fill('ask tool echo on everything if message matches /secret/\ndeny tool get-sum if a > 100');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(rules.getByRole('status')).toHaveText('Saved');
    await expect(rules).toContainText("When `get-sum`'s `a` is over 100 → Deny");
    expect(await axeInBothThemes(page, '.rules-settings')).toEqual([]);
  });

  await test.step('Test a rule: sample arguments → the decision and the rule; nothing runs', async () => {
    await rules.getByRole('button', { name: 'Test a rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test a rule' });
    await dialog.getByLabel('Tool', { exact: true }).fill('get-sum');
    await dialog.getByLabel('Sample arguments (JSON)').fill('{"a": 500, "b": 1}');
    await dialog.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(dialog.getByRole('status')).toContainText(
      "Deny — This call would be denied (it never reaches the server): When `get-sum`'s `a` is over 100 → Deny.",
    );
    await expect(dialog.getByRole('status')).toContainText('Line 2: deny tool get-sum if a > 100');
    expect(await axeInBothThemes(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the consent dialog names the rule that asks; a denied call never runs and the model is told which rule', async () => {
    const asked = toolsHost.modelCall('everything', 'echo', { message: 'my secret' });
    const dialog = page.getByRole('dialog', { name: 'Allow everything to run echo?' });
    await expect(dialog).toContainText("Rule on line 1: When `echo` (on `everything`)'s `message` matches /secret/ → Ask");
    expect(await axeInBothThemes(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    expect(await asked).toMatchObject({ status: 'ok', decidedBy: 'user' });
    const denied = await toolsHost.modelCall('everything', 'get-sum', { a: 500, b: 1 });
    expect(denied).toMatchObject({ status: 'denied', decidedBy: 'policy' });
    expect(denied.text).toContain('the rule on line 2 of Settings › Rules "When `get-sum`\'s `a` is over 100 → Deny" denies this call');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The audit trail names who decided: the rule.
    const trail = page.getByRole('list', { name: 'Tool calls' });
    await expect(trail.getByRole('listitem').first()).toContainText('denied by a rule');
    await trail.getByRole('listitem').first().getByText('denied by a rule').click();
    await expect(trail.getByRole('listitem').first()).toContainText("Rule on line 2: When `get-sum`'s `a` is over 100 → Deny");
  });
});
