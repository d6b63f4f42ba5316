import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_MESSAGE_CHARS } from '@contract';
import { Composer } from './Composer';

afterEach(cleanup);

function Harness({
  onSend,
  running = false,
  onStop = async () => undefined,
}: {
  onSend(text: string): Promise<unknown>;
  running?: boolean;
  onStop?(): Promise<unknown>;
}) {
  const [draft, setDraft] = useState('');
  return <Composer draft={draft} onDraftChange={setDraft} onSend={onSend} onStop={onStop} running={running} />;
}

const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

describe('Composer', () => {
  it('sends on Enter, keeps Shift+Enter for a new line, and clears only after the host took it', async () => {
    let accept!: () => void;
    const onSend = vi.fn(() => new Promise<void>((resolve) => (accept = resolve)));
    render(<Harness onSend={onSend} />);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    fireEvent.change(box(), { target: { value: 'line one' } });
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('line one');
    expect(box().value).toBe('line one');
    await act(async () => accept());
    expect(box().value).toBe('');
  });

  it('keeps the draft and says why when sending fails', async () => {
    render(<Harness onSend={() => Promise.reject(new Error('Disconnected'))} />);
    fireEvent.change(box(), { target: { value: 'important words' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(box().value).toBe('important words');
    expect(screen.getByRole('alert').textContent).toContain('Disconnected');
  });

  it('shows Stop while a turn runs, and does not send meanwhile', async () => {
    const onSend = vi.fn(async () => undefined);
    const onStop = vi.fn(async () => undefined);
    render(<Harness onSend={onSend} onStop={onStop} running />);
    fireEvent.change(box(), { target: { value: 'next question' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalled();
    expect(box().value).toBe('next question');
  });

  it('says at the field when a message is longer than a message may be, and does not send it', async () => {
    const onSend = vi.fn(async () => undefined);
    render(<Harness onSend={onSend} />);
    fireEvent.change(box(), { target: { value: 'x'.repeat(MAX_MESSAGE_CHARS + 1) } });
    expect(box().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/Too long to send: 200,001 characters; a message may have at most 200,000/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.change(box(), { target: { value: 'short' } });
    expect(box().getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', false);
  });
});
