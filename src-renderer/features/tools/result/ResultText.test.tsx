import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { outcome } from '../test-support/tool-factories';
import { looksLikeMarkdown } from './markdown-text';
import { ToolResultView } from './ToolResultView';

afterEach(cleanup);

const REPORT = '## Weather\n\n- **Berlin**: 12 °C\n- Paris: 15 °C\n\nSee [the source](https://example.com/w) <img src=x onerror=alert(1)>';

describe('Markdown in tool and task results', () => {
  it('tells Markdown from plain text and JSON', () => {
    expect(looksLikeMarkdown(REPORT)).toBe(true);
    expect(looksLikeMarkdown('| a | b |\n|---|---|\n| 1 | 2 |')).toBe(true);
    expect(looksLikeMarkdown('The sum of 1 and 2 is 3.')).toBe(false);
    expect(looksLikeMarkdown('{"items": ["# not a heading", "**x**"]}')).toBe(false);
    expect(looksLikeMarkdown('a * b * c\nline two')).toBe(false);
  });

  it('shows a Markdown result formatted, safely (no raw HTML, links open outside), with its text one click away', async () => {
    render(<ToolResultView load={vi.fn()} outcome={outcome({ blocks: [{ type: 'text', text: REPORT }] })} />);
    const result = screen.getByRole('region', { name: 'Result: get-sum on everything' });
    expect(await within(result).findByRole('heading', { level: 2, name: 'Weather' })).toBeTruthy();
    expect(within(result).getAllByRole('listitem')).toHaveLength(2);
    expect(within(result).getByText('Berlin').tagName).toBe('STRONG');
    const link = within(result).getByRole('link', { name: 'the source' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(result.querySelector('img')).toBeNull();
    const asText = within(result).getByRole('button', { name: 'Show as text' });
    fireEvent.click(asText);
    expect(asText.getAttribute('aria-pressed')).toBe('true');
    expect(result.querySelector('pre')?.textContent).toBe(REPORT);
  });

  it('keeps plain text as written', () => {
    render(<ToolResultView load={vi.fn()} outcome={outcome({ blocks: [{ type: 'text', text: 'line one\nline two' }] })} />);
    expect(screen.getByText(/line one/).tagName).toBe('PRE');
    expect(screen.queryByRole('button', { name: 'Show as text' })).toBeNull();
  });
});
