/**
 * Size limits in web mode, as a careless user meets them: a pasted message over 1 MB, a 1.2 MB config
 * file, and a config within the character limit but over the 1 MB a call may carry (so the host's own
 * refusal, answered with the call's id, reaches the dialog). Every one says why at once; nothing hangs.
 */
import { expect, test } from '../support/web-host';

test('a message or a config file over the limits is refused with a message, and no button stays busy', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

  await test.step('a message of more than 1 MB is refused at the field', async () => {
    await nav('Chat').click();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('x'.repeat(1_100_000));
    await expect(message).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Too long to send: 1,100,000 characters; a message may have at most 200,000.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await message.fill('short again');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  });

  await nav('Servers').click();
  await page.getByRole('button', { name: 'Import servers' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import servers' });
  const configuration = dialog.getByLabel('Configuration');

  await test.step('a 1.2 MB config file is refused at the field', async () => {
    const padding = ' '.repeat(1_200_000);
    await dialog.getByLabel('Choose file…').setInputFiles({
      name: 'claude_desktop_config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(`{"mcpServers":{}${padding}}`),
    });
    await expect(dialog.getByText('claude_desktop_config.json (1.1 MB) is larger than the 512 KB an import may carry.')).toBeVisible();
    await expect(configuration).toHaveValue('');
  });

  await test.step('a config the host refuses for its size answers with the limit, and the dialog is usable again', async () => {
    // 400,000 characters of three bytes each: within the character limit, 1.2 MB on the wire.
    await configuration.fill(`{"mcpServers":{"a":{"command":"${'漢'.repeat(400_000)}"}}}`);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByRole('alert')).toContainText('is larger than the 1 MB a call may carry');
    await expect(dialog.getByRole('button', { name: 'Preview' })).toBeEnabled();
    await configuration.fill('{"mcpServers":{}}');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Import 0 servers' })).toBeDisabled();
  });
});
