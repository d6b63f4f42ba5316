import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HostCallError, type ProviderView } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ProvidersSettings } from './ProvidersSettings';
import { anthropicProvider, localProvider } from './test-support/provider-factories';

afterEach(cleanup);

function host(providers: ProviderView[] = [anthropicProvider()]) {
  return fakeHost({
    providers: { providers },
    replies: {
      detectLocalProviders: () => [
        { presetId: 'ollama', running: true, models: 3 },
        { presetId: 'lm-studio', running: false },
      ],
      addProvider: (input: { name: string }) => localProvider({ id: 'p-new', name: input.name }),
      refreshProviderModels: ({ id }: { id: string }) => localProvider({ id }),
    },
  });
}

describe('Settings › Providers', () => {
  it('lists each provider with its endpoint, key state and models; the Anthropic one cannot be removed', async () => {
    await renderWithHost(<ProvidersSettings />, host([anthropicProvider(), localProvider({ modelsNote: undefined })]), 'settings');
    const list = screen.getByRole('list', { name: 'Providers' });
    const anthropic = within(list).getByRole('listitem', { name: 'Anthropic' });
    expect(anthropic.textContent).toContain('https://api.anthropic.com');
    expect(anthropic.textContent).toContain('No API key (needed)');
    expect(within(anthropic).queryByRole('button', { name: 'Remove' })).toBeNull();
    const local = within(list).getByRole('listitem', { name: 'Ollama' });
    expect(local.textContent).toMatch(/OpenAI-compatible.*127\.0\.0\.1:11434/);
    expect(local.textContent).toContain('2 models');
    expect(local.textContent).toContain('No API key');
    expect(local.textContent).not.toContain('(needed)');
  });

  it('adds a provider: presets fill the form and say which local server answers; Save sends it; the dialog closes', async () => {
    const fake = host();
    await renderWithHost(<ProvidersSettings />, fake, 'settings');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add provider' })));
    const dialog = screen.getByRole('dialog', { name: 'Add provider' });
    const presets = within(dialog).getByRole('group', { name: 'Presets' });
    expect(within(presets).getByRole('button', { name: 'Ollama' }).getAttribute('aria-describedby')).toBeTruthy();
    expect(presets.textContent).toMatch(/Ollamarunning \(3 models\)/);
    expect(presets.textContent).toMatch(/LM Studionot detected/);
    fireEvent.click(within(presets).getByRole('button', { name: 'Ollama' }));
    expect(within(dialog).getByRole('combobox', { name: 'Type' }).textContent).toBe('OpenAI-compatible');
    fireEvent.keyDown(within(dialog).getByRole('combobox', { name: 'Type' }), { key: 'Enter' });
    expect(within(screen.getByRole('listbox')).getByRole('option', { name: 'OpenAI-compatible' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Ollama');
    expect((within(dialog).getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
    fireEvent.change(within(dialog).getByLabelText('API key'), { target: { value: ' sk-local ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    expect(fake.of('addProvider')).toEqual([
      { type: 'openai-compatible', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-local' },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the draft and marks the field the host refused', async () => {
    const refused = fakeHost({
      providers: { providers: [anthropicProvider()] },
      reply: (method) =>
        method === 'addProvider'
          ? {
              ok: false,
              error: new HostCallError('invalid_input', 'Invalid input', [
                { path: ['baseUrl'], message: 'Enter an http or https URL' },
              ]).toHostError(),
            }
          : method === 'detectLocalProviders'
            ? { ok: true, value: [] }
            : undefined,
    });
    await renderWithHost(<ProvidersSettings />, refused, 'settings');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add provider' })));
    const dialog = screen.getByRole('dialog', { name: 'Add provider' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Mine' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Base URL' }), { target: { value: 'ftp://x' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    const url = within(dialog).getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement;
    expect(url.value).toBe('ftp://x');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText('Enter an http or https URL')).toBeTruthy();
  });

  it('edits (a new key only when typed), refreshes models, offers tools again, and removes after confirming', async () => {
    const local = localProvider({ apiKey: { state: 'set', source: 'stored', storage: 'kept' }, modelsWithoutTools: ['gemma:2b'] });
    const fake = host([anthropicProvider(), local]);
    await renderWithHost(<ProvidersSettings />, fake, 'settings');
    const item = screen.getByRole('listitem', { name: 'Ollama' });

    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Edit' })));
    const dialog = screen.getByRole('dialog', { name: 'Edit Ollama' });
    expect((within(dialog).getByRole('combobox', { name: 'Type' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText('API key') as HTMLInputElement).value).toBe('');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Ollama box' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    expect(fake.of('updateProvider')).toEqual([{ id: 'p-ollama', name: 'Ollama box', baseUrl: 'http://127.0.0.1:11434/v1' }]);

    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Refresh models' })));
    expect(fake.of('refreshProviderModels')).toEqual([{ id: 'p-ollama' }]);
    expect(item.textContent).toContain('gemma:2b');
    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Offer tools again' })));
    expect(fake.of('updateProvider').at(-1)).toEqual({ id: 'p-ollama', offerToolsAgain: true });

    fireEvent.click(within(item).getByRole('button', { name: 'Remove' }));
    expect(fake.of('removeProvider')).toEqual([]);
    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Remove Ollama' })));
    expect(fake.of('removeProvider')).toEqual([{ id: 'p-ollama' }]);
  });
});
