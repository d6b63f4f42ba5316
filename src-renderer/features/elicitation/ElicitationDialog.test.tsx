import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElicitationRequestView } from '@contract';
import { ElicitationDialog } from './ElicitationDialog';

afterEach(cleanup);

const form: ElicitationRequestView = {
  id: 'e1',
  serverId: 'a',
  serverName: 'everything',
  mode: 'form',
  message: 'Please provide inputs',
  requestedSchema: {
    properties: {
      name: { type: 'string', title: 'Name' },
      count: { type: 'integer', title: 'Count', default: 42 },
      pet: { type: 'string', title: 'Pet', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'], default: 'p1' },
      ok: { type: 'boolean', title: 'OK' },
    },
    required: ['name'],
  },
  requestedAt: '2026-01-01T00:00:00.000Z',
};

describe('the elicitation dialog', () => {
  it('pre-fills defaults, sends typed values on Accept, shows field errors, and maps Decline and Cancel', async () => {
    const onResolve = vi.fn(async (action: string, content?: unknown) => {
      if (action === 'accept' && !(content as { name?: string }).name)
        throw Object.assign(new Error('bad'), {
          code: 'invalid_input',
          data: [{ path: ['content', 'name'], message: 'Name is required' }],
        });
    });
    render(<ElicitationDialog request={form} onResolve={onResolve} openUrl={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'everything asks…' })).toBeTruthy();
    expect((screen.getByRole('spinbutton', { name: 'Count' }) as HTMLInputElement).value).toBe('42');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(screen.getByText('Name is required')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Name (required)' }), { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'OK' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(onResolve).toHaveBeenLastCalledWith('accept', { name: 'Ada', count: 42, pet: 'p1', ok: true });
    // The dialog stays (disabled) until the host says the request settled; a fresh one per action.
    for (const action of ['decline', 'cancel'] as const) {
      cleanup();
      render(<ElicitationDialog request={form} onResolve={onResolve} openUrl={() => undefined} />);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: action === 'decline' ? 'Decline' : 'Cancel' })));
      expect(onResolve).toHaveBeenLastCalledWith(action, undefined);
    }
  });

  it('URL mode shows the full URL and host and opens it only after Accept', async () => {
    const openUrl = vi.fn();
    render(
      <ElicitationDialog
        request={{ ...form, mode: 'url', requestedSchema: undefined, url: 'https://example.com/auth?x=1', urlHost: 'example.com' }}
        onResolve={async () => undefined}
        openUrl={openUrl}
      />,
    );
    expect(screen.getByText('https://example.com/auth?x=1')).toBeTruthy();
    expect(openUrl).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(openUrl).toHaveBeenCalledWith('https://example.com/auth?x=1');
  });
});
