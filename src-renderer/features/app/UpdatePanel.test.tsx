import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type UpdateState } from '@contract';
import { SettingsForm } from '../settings/SettingsForm';
import { UpdatePanel } from './UpdatePanel';

afterEach(cleanup);

function panel(state: UpdateState) {
  const calls: unknown[] = [];
  const api = {
    checkForUpdates: async () => {
      calls.push('check');
      return state;
    },
    installUpdate: async (input: { when: 'now' | 'on-quit' }) => {
      calls.push(input);
      return state;
    },
  };
  render(<UpdatePanel state={state} api={api} />);
  return calls;
}

describe('UpdatePanel', () => {
  it('says why updates do not apply, with nothing to press', () => {
    panel({ status: 'unsupported', reason: 'Updates are part of the desktop app; web mode runs the copy you started.' });
    expect(screen.getByTestId('update-state').textContent).toBe(
      'Not applicable: Updates are part of the desktop app; web mode runs the copy you started.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('checks on demand when nothing is under way, and not while downloading', () => {
    const calls = panel({ status: 'error', message: 'cannot reach the update feed', at: new Date().toISOString() });
    expect(screen.getByTestId('update-state').textContent).toContain('The last check failed just now: cannot reach the update feed.');
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(calls).toEqual(['check']);
    cleanup();
    panel({ status: 'downloading', version: '2.0.0', percent: 30 });
    expect(screen.getByRole('progressbar', { name: 'Download of Patchbay 2.0.0' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Check now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('installs a downloaded update only when the user says so', () => {
    const calls = panel({ status: 'ready', version: '2.0.0', installOnQuit: false });
    fireEvent.click(screen.getByRole('button', { name: 'Restart and install' }));
    expect(calls).toEqual([{ when: 'now' }]);
  });
});

describe('SettingsForm › Updates', () => {
  it('saves the switch and the feed; in web mode they are shown as not applicable', async () => {
    const saved: unknown[] = [];
    render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={async (patch) => saved.push(patch)} />);
    const toggle = screen.getByRole('switch', { name: 'Check for updates' });
    expect(toggle.getAttribute('aria-checked')).toBe('false'); // off by default
    fireEvent.click(toggle); // a preference: saved at once, on its own
    await screen.findByText('Saved');
    expect(saved).toEqual([{ updatesEnabled: true }]);
    fireEvent.change(screen.getByLabelText('Update feed'), { target: { value: ' acme/patchbay ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(saved[1]).toMatchObject({ updateFeed: 'acme/patchbay' });
    cleanup();

    render(<SettingsForm settings={DEFAULT_SETTINGS} onSave={async () => undefined} updatesApplicable={false} />);
    expect((screen.getByRole('group', { name: 'Updates' }) as HTMLFieldSetElement).disabled).toBe(true);
    expect(screen.getByText('Not applicable in web mode: updates are part of the desktop app.')).toBeTruthy();
  });
});
