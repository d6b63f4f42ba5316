import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTLE_MS, useSettledClicks } from './use-settled-clicks';

/** Where the buttons are on screen; the test moves them as a resizing app would. */
let top = 100;

function Question({ onSend }: { onSend(): void }) {
  const { ref, settling, guard } = useSettledClicks<HTMLDivElement>();
  return (
    <div ref={ref}>
      <button type="button" aria-disabled={settling || undefined} onClick={guard(onSend)}>
        Send message
      </button>
    </div>
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
  top = 100;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => new DOMRect(0, top, 200, 30));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const pointerClick = (button: HTMLElement) => fireEvent.click(button, { detail: 1 });

describe('useSettledClicks', () => {
  it('ignores a pointer click right after the buttons appear or move, takes it once they stood still, and always takes a key press', async () => {
    const onSend = vi.fn();
    render(<Question onSend={onSend} />);
    const button = screen.getByRole('button', { name: 'Send message' });

    pointerClick(button);
    expect(onSend).not.toHaveBeenCalled();
    expect(button.getAttribute('aria-disabled')).toBe('true');

    await act(async () => vi.advanceTimersByTime(SETTLE_MS + 50));
    expect(button.getAttribute('aria-disabled')).toBeNull();
    pointerClick(button);
    expect(onSend).toHaveBeenCalledTimes(1);

    // The app above grows: the button is somewhere else when the click comes (before any frame saw it).
    top = 260;
    pointerClick(button);
    expect(onSend).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTime(SETTLE_MS / 2));
    pointerClick(button);
    expect(onSend).toHaveBeenCalledTimes(1);
    // A key press acts on the focused button wherever it is.
    fireEvent.click(button, { detail: 0 });
    expect(onSend).toHaveBeenCalledTimes(2);

    await act(async () => vi.advanceTimersByTime(SETTLE_MS));
    pointerClick(button);
    expect(onSend).toHaveBeenCalledTimes(3);
  });
});
