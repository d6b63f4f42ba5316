import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type ApiKeyStatus } from '@contract';
import { HostCallError } from '@contract';
import { anthropicProvider, localProvider } from '../providers/test-support/provider-factories';
import { SettingsForm } from '../settings/SettingsForm';
import { choose } from '../../test-support/choose';

afterEach(cleanup);

const STORAGE = "Encrypted in Patchbay's database with a key kept in secrets.key (owner-only permissions).";

function renderForm(apiKey: ApiKeyStatus, onSetApiKey = vi.fn(async () => undefined), onSave = vi.fn(async () => undefined)) {
  const onClearApiKey = vi.fn(async () => undefined);
  const view = render(
    <SettingsForm
      settings={DEFAULT_SETTINGS}
      onSave={onSave}
      apiKey={apiKey}
      onSetApiKey={onSetApiKey}
      onClearApiKey={onClearApiKey}
      providers={[anthropicProvider(), localProvider()]}
    />,
  );
  return { ...view, onSetApiKey, onClearApiKey, onSave };
}

describe('Settings: API key and chat fields', () => {
  it('sends a typed key once with Save, then clears the field and shows only the status and where it is kept', async () => {
    const { onSetApiKey, onSave } = renderForm({ state: 'not-set', storage: STORAGE });
    const field = screen.getByLabelText('API key') as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(screen.getByTestId('api-key-state').textContent).toBe('Not set.');
    expect(
      field.getAttribute('aria-describedby') && document.getElementById(field.getAttribute('aria-describedby')!)?.textContent,
    ).toContain('owner-only');
    fireEvent.change(field, { target: { value: ' sk-ant-secret ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSave).toHaveBeenCalled();
    expect(onSetApiKey).toHaveBeenCalledWith('sk-ant-secret');
    expect(field.value).toBe('');
  });

  it('says where a key came from, offers to remove a stored one, and never asks for the key again to save other fields', async () => {
    const env = renderForm({ state: 'set', source: 'environment', storage: STORAGE });
    expect(screen.getByTestId('api-key-state').textContent).toMatch(/ANTHROPIC_API_KEY environment variable/);
    expect(screen.queryByRole('button', { name: 'Remove key' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(env.onSetApiKey).not.toHaveBeenCalled();
    env.unmount();

    const stored = renderForm({ state: 'set', source: 'stored', storage: STORAGE });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove key' })));
    expect(stored.onClearApiKey).toHaveBeenCalled();
  });

  it('shows a refused key next to the field and keeps it', async () => {
    const refuse = vi.fn(() =>
      Promise.reject(new HostCallError('invalid_input', 'Invalid input', [{ path: ['apiKey'], message: 'An API key has no spaces' }])),
    );
    renderForm({ state: 'not-set', storage: STORAGE }, refuse);
    const field = screen.getByLabelText('API key') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'has space' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(field.value).toBe('has space');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('An API key has no spaces')).toBeTruthy();
  });

  it('edits max tokens, system prompt and the tool limits, and offers known models', async () => {
    const { onSave } = renderForm({ state: 'set', source: 'stored', storage: STORAGE });
    fireEvent.change(screen.getByLabelText('Max tokens'), { target: { value: '2048' } });
    fireEvent.change(screen.getByLabelText('System prompt'), { target: { value: 'Be brief.' } });
    fireEvent.change(screen.getByLabelText('Tool rounds per turn'), { target: { value: '5' } });
    fireEvent.click(within(screen.getByRole('group', { name: 'Available models' })).getByRole('button', { name: 'claude-opus-5-5' }));
    expect((screen.getByRole('textbox', { name: 'Model' }) as HTMLInputElement).value).toBe('claude-opus-5-5');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ maxTokens: 2048, systemPrompt: 'Be brief.', maxToolRounds: 5, defaultModel: 'claude-opus-5-5' }),
    );
  });

  it('picks the default provider, and offers that provider’s models for the Model field', async () => {
    const { onSave } = renderForm({ state: 'set', source: 'stored', storage: STORAGE });
    await choose(screen.getByRole('combobox', { name: 'Default provider' }), 'Ollama');
    const offered = within(screen.getByRole('group', { name: 'Available models' }));
    expect(offered.getAllByRole('button').map((b) => b.textContent)).toEqual(['llama3.1:8b', 'qwen2.5:7b']);
    fireEvent.click(offered.getByRole('button', { name: 'qwen2.5:7b' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ defaultProviderId: 'p-ollama', defaultModel: 'qwen2.5:7b' }));
  });
});
