/** The scripted Messages-API server for a spec file (see src-main/core/chat/test-support/scripted-llm.ts). */
import { expect, type Page } from '@playwright/test';
import { startScriptedLlm, type ScriptedLlm } from '../../src-main/core/chat/test-support/scripted-llm';
import { useScriptedServer } from './scripted-server';

/** Registers the hooks; call the returned function inside a test to get the running server. */
export function useScriptedLlm(): () => ScriptedLlm {
  return useScriptedServer(() => startScriptedLlm(), { what: 'The scripted LLM', dropEnv: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] });
}

/** Settings › Preferences: the Anthropic provider's base URL set to `url` (the scripted server) and a key saved. */
export async function pointAnthropicAt(page: Page, url: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const form = page.getByRole('form', { name: 'Preferences' });
  await form.getByRole('textbox', { name: 'Anthropic base URL', exact: true }).fill(url);
  await form.getByLabel('API key', { exact: true }).fill('sk-ant-e2e-key');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('api-key-state')).toHaveText('Set.');
}
