import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostApi } from '@contract';
import { COMPLETION_DEBOUNCE_MS, useCompletion } from './use-completion';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Probe({ api, value, enabled = true }: { api: HostApi; value: string; enabled?: boolean }) {
  const { values } = useCompletion(
    api,
    { serverId: 's', ref: { type: 'prompt', name: 'p' }, argument: 'name', value, context: { department: 'Sales' } },
    enabled,
  );
  return <output>{values.join(',')}</output>;
}

describe('useCompletion', () => {
  it('asks once typing pauses, with the other fields as context, and shows only the newest answer', async () => {
    vi.useFakeTimers();
    const answers: ((values: string[]) => void)[] = [];
    const completeArgument = vi.fn(() => new Promise<{ values: string[] }>((resolve) => answers.push((values) => resolve({ values }))));
    const api = { completeArgument } as unknown as HostApi;
    const { rerender } = render(<Probe api={api} value="E" />);
    rerender(<Probe api={api} value="Ev" />);
    await act(async () => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    // Typing quickly: one question, for the latest value.
    expect(completeArgument.mock.calls).toEqual([
      [{ serverId: 's', ref: { type: 'prompt', name: 'p' }, argument: { name: 'name', value: 'Ev' }, context: { department: 'Sales' } }],
    ]);
    rerender(<Probe api={api} value="E" />);
    await act(async () => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    // The newer question is answered first; the older answer arriving late changes nothing.
    await act(async () => answers[1](['Eve', 'Erin']));
    await act(async () => answers[0](['Eve']));
    expect(screen.getByRole('status').textContent).toBe('Eve,Erin');
  });

  it('asks nothing when the server has no completions, and shows nothing for a failed question', async () => {
    vi.useFakeTimers();
    const completeArgument = vi.fn(async () => Promise.reject(new Error('timeout')));
    const api = { completeArgument } as unknown as HostApi;
    const { rerender } = render(<Probe api={api} value="a" enabled={false} />);
    await act(async () => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS * 2));
    expect(completeArgument).not.toHaveBeenCalled();
    rerender(<Probe api={api} value="a" />);
    await act(async () => vi.advanceTimersByTime(COMPLETION_DEBOUNCE_MS));
    expect(completeArgument).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
