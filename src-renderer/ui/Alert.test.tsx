import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Alert } from './Alert';

afterEach(cleanup);

describe('Alert (a failure in words, or nothing)', () => {
  it('renders nothing at all while there is no message', () => {
    for (const message of [undefined, null, false, ''] as const) {
      const { container } = render(<Alert message={message} prefix="Could not load the log:" />);
      expect(container.innerHTML).toBe('');
      cleanup();
    }
  });

  it('says the message in a paragraph screen readers announce, in the warning box by default', () => {
    render(<Alert message="disk full" prefix="Could not load the log:" />);
    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('P');
    expect(alert.className).toBe('warning');
    expect(alert.textContent).toBe('Could not load the log: disk full');
  });

  it('keeps the id a control points at, and the form look or none', () => {
    const { rerender } = render(<Alert id="draft-error" message="no model chosen" prefix="Not sent:" tone="field-error" />);
    const alert = screen.getByRole('alert');
    expect(alert.id).toBe('draft-error');
    expect(alert.className).toBe('field-error');
    expect(document.getElementById('draft-error')?.textContent).toBe('Not sent: no model chosen');
    rerender(<Alert message="timeline gone" tone="plain" />);
    expect(screen.getByRole('alert').hasAttribute('class')).toBe(false);
  });
});
