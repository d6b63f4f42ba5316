/**
 * MCP Apps in web mode, in Chromium, with real app servers from the registry
 * (`@modelcontextprotocol/server-basic-vanillajs`, `server-budget-allocator`, both `--stdio`) and a
 * hostile app (e2e/fixtures/app-lab.mjs): the app renders beside its tool's result, gets the result,
 * calls a tool back through the Allow… dialog, resizes; what it asks of the user needs a click; and a
 * hostile app's escapes all fail while Patchbay keeps working.
 */
import dgram from 'node:dgram';
import path from 'node:path';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { clickWhenStill } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const NODE = process.execPath;
const BASIC = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
const BUDGET = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-budget-allocator/dist/index.js');
const LAB = path.join(REPO_ROOT, 'e2e/fixtures/app-lab.mjs');

const llm = useScriptedLlm();

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const card = (page: Page, name: string) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

async function addServer(page: Page, name: string, args: string[], env = '', { sandboxed = true } = {}): Promise<void> {
  await nav(page, 'Servers').click();
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Command', { exact: true }).fill(NODE);
  await dialog.getByLabel('Arguments', { exact: true }).fill(args.join('\n'));
  if (env) await dialog.getByLabel('Environment', { exact: true }).fill(env);
  if (!sandboxed) await dialog.getByRole('switch', { name: 'Sandbox', exact: true }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(card(page, name)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

/** Opens the server's Tools tab, selects the tool and runs it with no arguments. */
async function runTool(page: Page, server: string, tool: string): Promise<void> {
  await nav(page, 'Servers').click();
  await card(page, server).getByRole('button', { name: server, exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  await page
    .getByRole('list', { name: `Tools of ${server}` })
    .getByRole('button', { name: tool, exact: true })
    .click();
  await page
    .getByRole('form', { name: `Run ${tool}` })
    .getByRole('button', { name: 'Run' })
    .click();
}

/** The app's own document: inside the sandbox proxy's frame, inside ours. */
function appDocument(view: Locator): FrameLocator {
  return view.locator('iframe.app-frame').contentFrame().locator('iframe').contentFrame();
}

test('basic app (vanilla JS): shown with its result, calls get-time back through Allow…, resizes; links and messages need a click', async ({
  page,
  webHost,
}) => {
  test.setTimeout(240_000); // an app that never starts is reported after 30 s
  await page.goto(webHost.url);
  await addServer(page, 'Basic app', [BASIC, '--stdio']);
  // The app's frame page (on the app origin) is held until released: its loading state can be seen.
  const pageOrigin = new URL(webHost.url).origin;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.origin !== pageOrigin,
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  await runTool(page, 'Basic app', 'get-time');
  const view = page.getByRole('region', { name: 'App of get-time from Basic app' });
  const app = appDocument(view);

  await test.step('until the app says it is initialized, it shows it is loading', async () => {
    const box = view.locator('.app-frame-box');
    await expect(view.getByRole('status').filter({ hasText: 'Loading app…' })).toBeVisible();
    await expect(box).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(app.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
    await expect(view.getByText('Loading app…')).toHaveCount(0);
    await expect(box).toHaveAttribute('aria-busy', 'false');
  });

  await test.step('the app renders on its own origin and shows the tool result it was given', async () => {
    await expect(app.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/);
    const frameSrc = await view.locator('iframe.app-frame').getAttribute('src');
    expect(new URL(frameSrc!).origin).not.toBe(new URL(page.url()).origin);
    await expect(view).toContainText('No network access');
  });

  await test.step('it is told the theme, and when the system’s changes (Theme: System)', async () => {
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
  });

  await test.step('it resizes to its content', async () => {
    // Chromium does not render (no animation frames, so no measuring) in a cross-origin frame out of view.
    await view.scrollIntoViewIfNeeded();
    await expect.poll(async () => (await view.locator('iframe.app-frame').boundingBox())?.height).not.toBe(160);
  });

  await test.step('its tool call asks the user, naming the app, and the answer reaches the app', async () => {
    const before = await app.locator('#server-time').textContent();
    await app.getByRole('button', { name: 'Get Server Time' }).click();
    const dialog = page.getByRole('dialog', { name: 'Allow the app of Basic app to run get-time?' });
    await expect(dialog).toContainText('The app of Basic app wants to run a tool');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(dialog).toBeHidden();
    await expect(app.locator('#server-time')).not.toHaveText(before ?? '');
    await expect(app.locator('#server-time')).toHaveText(/^\d{4}-/);
  });

  await test.step('a link it wants opened waits for the user', async () => {
    await app.getByRole('button', { name: 'Open Link' }).click();
    const ask = view.getByRole('group', { name: 'The app of Basic app wants to open a link' });
    await expect(ask).toContainText('https://modelcontextprotocol.io/');
    await clickWhenStill(ask.getByRole('button', { name: 'Dismiss' }));
    await expect(ask).toBeHidden();
  });

  await test.step('a question sits above the frame, and a click right after it moved is not taken', async () => {
    const ask = view.getByRole('group', { name: 'The app of Basic app wants to open a link' });
    const dismiss = ask.getByRole('button', { name: 'Dismiss' });
    const frameTop = async () => (await view.locator('iframe.app-frame').boundingBox())!.y;
    let shown = false;
    // A click within 500 ms of the move is what is tested; a machine stalled past that gets another try.
    for (let tries = 0; ; tries++) {
      expect(tries, 'a click within 500 ms of the move').toBeLessThan(5);
      if (!shown) {
        await app.getByRole('button', { name: 'Open Link' }).click();
        await expect(dismiss).not.toHaveAttribute('aria-disabled', 'true');
        expect((await dismiss.boundingBox())!.y).toBeLessThan(await frameTop());
        shown = true;
      }
      // Something above the view grows (as a taller app above it in a chat does): the buttons move down.
      await view.evaluate(async (section) => {
        const spacer = document.createElement('div');
        spacer.className = 'e2e-spacer';
        spacer.style.height = '64px';
        section.before(spacer);
        const moved = performance.now();
        window.addEventListener(
          'click',
          () => ((window as unknown as { e2eClickAfter: number }).e2eClickAfter = performance.now() - moved),
          {
            capture: true,
            once: true,
          },
        );
        await new Promise(requestAnimationFrame);
      });
      const box = (await dismiss.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const after = await page.evaluate(() => (window as unknown as { e2eClickAfter: number }).e2eClickAfter);
      if (after < 500) {
        // Not taken: once the buttons have stood still, the question is still there.
        await expect(dismiss).not.toHaveAttribute('aria-disabled', 'true');
        await expect(ask).toBeVisible();
        break;
      }
      shown = await ask.isVisible();
    }
    await clickWhenStill(dismiss);
    await expect(ask).toBeHidden();
    await page.evaluate(() => document.querySelectorAll('.e2e-spacer').forEach((spacer) => spacer.remove()));
  });

  await test.step('a message for the model outside a chat is shown, and cannot be sent from here', async () => {
    await app.getByRole('button', { name: 'Send Message' }).click();
    const ask = view.getByRole('group', { name: 'The app of Basic app wants to send a message' });
    await expect(ask).toContainText('This is message text.');
    await expect(ask).toContainText('Apps can send messages only from a chat.');
    await clickWhenStill(ask.getByRole('button', { name: 'Dismiss' }));
  });

  await test.step('full screen and back; closing tears the app down', async () => {
    await view.getByRole('button', { name: 'Full screen' }).click();
    await expect(view).toHaveAttribute('data-mode', 'fullscreen');
    await page.keyboard.press('Escape');
    await expect(view).toHaveAttribute('data-mode', 'inline');
    await view.getByRole('button', { name: 'Close app' }).click();
    await expect(page.getByRole('button', { name: 'Show app' })).toBeVisible();
  });

  await test.step('an app whose page never starts is named in an error, not left loading', async () => {
    // The frame page answers 500 this time: the app never says it is initialized.
    await page.route(
      (url) => url.origin !== pageOrigin,
      (route) => route.fulfill({ status: 500, body: 'broken' }),
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Show app' }).click();
    await expect(view.getByRole('status').filter({ hasText: 'Loading app…' })).toBeVisible();
    await expect(view.getByRole('alert')).toHaveText(
      'The app of Basic app did not start within 30 s. Close it and show it again to retry.',
      {
        timeout: 60_000,
      },
    );
    await expect(view.getByText('Loading app…')).toHaveCount(0);
    await expect(view.locator('.app-frame-box')).toHaveAttribute('aria-busy', 'false');
    await view.getByRole('button', { name: 'Close app' }).click();
  });

  await test.step('the Protocol log names the app as the one who asked', async () => {
    await page.getByRole('tab', { name: 'Logs', exact: true }).click();
    await page.getByRole('tab', { name: 'Protocol', exact: true }).click();
    const entries = page.getByRole('list', { name: 'Protocol entries' });
    await expect(entries.getByRole('button', { name: /sent tools\/call #\d+ .*from the app of Basic app/ })).toHaveCount(1);
    await expect(entries.getByRole('button', { name: /received result tools\/call #\d+ .*for the app of Basic app/ })).toHaveCount(1);
  });
});

test('in a chat: the model calls the tools, the cards show the apps; a message the app sends needs the user’s click', async ({
  page,
  webHost,
}) => {
  await page.goto(webHost.url);
  await pointAnthropicAt(page, llm().url);
  await addServer(page, 'Budget', [BUDGET, '--stdio']);
  await addServer(page, 'Basic app', [BASIC, '--stdio']);
  await nav(page, 'Chat').click();
  await llm().script([
    { type: 'tool_use', calls: [{ nameEndsWith: '__get-budget-data', input: {} }] },
    { type: 'tool_use', calls: [{ nameEndsWith: '__get-time', input: {} }] },
    { type: 'text', text: 'Here they are.' },
    { type: 'text', text: 'Thanks for the message.' },
  ]);
  await page.getByRole('textbox', { name: 'Message' }).fill('Show me the budget and the time');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // One dialog per call, named by its tool: the second can open the moment the first call ends.
  for (const [server, tool] of [
    ['Budget', 'get-budget-data'],
    ['Basic app', 'get-time'],
  ]) {
    const dialog = page.getByRole('dialog', { name: `Allow ${server} to run ${tool}?` });
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(dialog).toBeHidden();
  }
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('Here they are.');

  await test.step('the budget allocator renders its chart from the result', async () => {
    const budget = page.getByRole('region', { name: 'App of get-budget-data from Budget' });
    await expect(appDocument(budget).locator('canvas').first()).toBeVisible();
  });

  await test.step('the basic app’s message goes into the conversation only when the user sends it', async () => {
    const basic = page.getByRole('region', { name: 'App of get-time from Basic app' });
    const app = appDocument(basic);
    await expect(app.locator('#server-time')).toHaveText(/^\d{4}-/);
    // Chromium lays out a cross-origin frame only in view: below the taller budget app, this one keeps
    // its first 160 px until seen, then grows and pushes its question down. Seen and grown first, the
    // question's button stays where it appears (a click at its pre-growth point landed in the app).
    await basic.scrollIntoViewIfNeeded();
    await expect.poll(async () => (await basic.locator('iframe.app-frame').boundingBox())?.height).not.toBe(160);
    // The click goes to the button itself, not to a point on the screen: the apps above and below it
    // still report their sizes and the log moves under a pointer (on a loaded machine, a click at the
    // button's earlier position missed it and the app never sent anything).
    await app.getByRole('button', { name: 'Send Message' }).dispatchEvent('click');
    const ask = basic.getByRole('group', { name: 'The app of Basic app wants to send a message' });
    await expect(ask).toContainText('This is message text.');
    await clickWhenStill(ask.getByRole('button', { name: 'Send message' }));
    await expect(log.getByRole('article', { name: 'You' }).last()).toContainText('This is message text.');
    await expect(log).toContainText('Thanks for the message.');
    const requests = await llm().messageRequests();
    expect(JSON.stringify(requests.at(-1)?.body?.messages)).toContain('This is message text.');
  });
});

test('a hostile app: reading the parent, cookies, the host’s WebSocket, undeclared origins, navigating, popups, WebRTC — all fail; Patchbay keeps working', async ({
  page,
  webHost,
}) => {
  // The app's WebRTC target: a STUN "server" on loopback that counts what reaches it.
  const udp = dgram.createSocket('udp4');
  let packets = 0;
  udp.on('message', () => packets++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  udp.unref();
  await page.goto(webHost.url);
  // Unsandboxed by choice: the origin the app declares is the server's own echo listener, which a
  // sandboxed server's network namespace keeps out of the browser's reach (what is tested is the frame).
  await addServer(page, 'App lab', [LAB], `HOST_PORT=${webHost.port}\nUDP_PORT=${udp.address().port}`, { sandboxed: false });
  const pagesBefore = page.context().pages().length;
  await runTool(page, 'App lab', 'hostile-view');
  // The address names the tool's page (routes); the app must not change it from there.
  const urlBefore = page.url();
  const view = page.getByRole('region', { name: 'App of hostile-view from App lab' });
  const app = appDocument(view);
  const result = (attack: string) => app.locator(`[data-attack="${attack}"]`);

  await test.step('its declared origin works; Patchbay’s own origins and malformed entries were refused', async () => {
    await expect(result('declared-fetch')).toHaveText('declared-fetch: ok echo ok');
    await expect(view).toContainText('5 refused');
  });

  await test.step('WebRTC is gone though the app declared an HTTP origin: no constructor, no packet', async () => {
    await expect(result('webrtc')).toHaveText('webrtc: blocked: RTCPeerConnection unavailable');
    await expect(result('nested-webrtc-ran')).toHaveCount(0);
  });

  await test.step('every escape is blocked', async () => {
    for (const attack of [
      'parent-dom',
      'top-dom',
      'cookies',
      'storage',
      'host-websocket',
      'host-page',
      'undeclared-fetch',
      'navigate-top',
      'popup',
      'webrtc-restore',
      'nested-webrtc',
      'static-nested-webrtc',
    ]) {
      await expect(result(attack), attack).toHaveText(new RegExp(`^${attack}: blocked`));
    }
    expect(page.url()).toBe(urlBefore);
    expect(page.context().pages()).toHaveLength(pagesBefore);
    // What it posted straight to the top window was not taken as the app's (no message to approve).
    await expect(result('direct-to-host')).toHaveText('direct-to-host: posted');
    await expect(view.getByRole('group', { name: /wants to send a message/ })).toHaveCount(0);
  });

  await test.step('Patchbay keeps working', async () => {
    await page.getByRole('list', { name: 'Tools of App lab' }).getByRole('button', { name: 'client-capabilities', exact: true }).click();
    await page.getByRole('form', { name: 'Run client-capabilities' }).getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('region', { name: /^Result: client-capabilities on App lab/ })).toContainText('io.modelcontextprotocol/ui');
    await nav(page, 'Settings').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  });
  // Checked after the steps above, so a STUN request the app had sent has long arrived.
  expect(packets, 'UDP packets from the app').toBe(0);
  udp.close();
});
