import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SettingsPatch } from '@contract';
import { HostCallError } from '@contract';
import { SettingsForm } from './SettingsForm';

afterEach(cleanup);

/** A save callback the test settles by hand, to see what the form shows before and after. */
function deferredSave() {
  const calls: { patch: SettingsPatch; resolve(): void; reject(e: Error): void }[] = [];
  const onSave = (patch: SettingsPatch) =>
    new Promise<unknown>((resolve, reject) => calls.push({ patch, resolve: () => resolve(undefined), reject }));
  return { calls, onSave };
}

describe('SettingsForm', () => {
  it('labels its fields, and shows "Saved" only once the host answered', async () => {
    const save = deferredSave();
    render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={save.onSave} />);
    fireEvent.change(screen.getByLabelText('Anthropic base URL'), { target: { value: ' http://127.0.0.1:9/v1 ' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'claude-test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saving…')).toBeTruthy();
    expect(screen.queryByText('Saved')).toBeNull();
    // The default tool set is chosen in Settings › Tool sets, the skills folder in Settings › Skills, not in this form.
    const { defaultToolSetId: _chosenElsewhere, skillsFolder: _chosenInSkills, ...formSettings } = DEFAULT_SETTINGS;
    expect(save.calls[0].patch).toEqual({
      ...formSettings,
      anthropicBaseUrl: 'http://127.0.0.1:9/v1',
      defaultModel: 'claude-test',
    });
    await act(async () => save.calls[0].resolve());
    expect(screen.getByText('Saved')).toBeTruthy();
  });

  it('applies the theme the moment it is chosen: saved on its own, other edits kept, "Saved" after the commit', async () => {
    const save = deferredSave();
    const { rerender } = render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={save.onSave} />);
    const model = screen.getByLabelText('Model') as HTMLInputElement;
    fireEvent.change(model, { target: { value: 'claude-draft' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
    expect(save.calls.map((c) => c.patch)).toEqual([{ theme: 'dark' }]);
    expect(screen.getByRole('status').textContent).toBe('Saving…');
    await act(async () => save.calls[0].resolve());
    expect(screen.getByRole('status').textContent).toBe('Saved');
    rerender(<SettingsForm settings={{ ...DEFAULT_SETTINGS, theme: 'dark' }} onSave={save.onSave} />);
    expect(model.value).toBe('claude-draft'); // the unsaved edit stays a draft

    // A preference the host refuses goes back to what is stored, saying why.
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    expect(save.calls[1].patch).toEqual({ theme: 'light' });
    await act(async () => save.calls[1].reject(new Error('disk full')));
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Not saved: disk full');
  });

  it('shows a rejected value next to its field and keeps what was typed', async () => {
    const save = deferredSave();
    render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={save.onSave} />);
    const url = screen.getByLabelText('Anthropic base URL') as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'not a url' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(async () =>
      save.calls[0].reject(new HostCallError('invalid_input', 'Invalid input', [{ path: ['anthropicBaseUrl'], message: 'Invalid URL' }])),
    );
    expect(url.value).toBe('not a url');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Invalid URL')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Not saved');
  });

  it('follows settings changed elsewhere while the user has not edited', () => {
    const { rerender } = render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={async () => undefined} />);
    rerender(<SettingsForm settings={{ ...DEFAULT_SETTINGS, defaultModel: 'from-another-window' }} onSave={async () => undefined} />);
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('from-another-window');
  });

  it('sets the Registry URL Find servers searches, and shows the host’s complaint about it', async () => {
    const save = deferredSave();
    render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={save.onSave} />);
    const registry = screen.getByLabelText('Registry URL') as HTMLInputElement;
    expect(registry.value).toBe('https://registry.modelcontextprotocol.io');
    fireEvent.change(registry, { target: { value: ' https://registry.example.org ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(save.calls[0].patch.registryUrl).toBe('https://registry.example.org');
    await act(async () =>
      save.calls[0].reject(new HostCallError('invalid_input', 'Invalid input', [{ path: ['registryUrl'], message: 'Invalid URL' }])),
    );
    expect(registry.getAttribute('aria-invalid')).toBe('true');
  });
});
