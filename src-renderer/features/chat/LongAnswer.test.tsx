import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LongAnswer, MARKDOWN_HEAD_CHARS } from './LongAnswer';
import { markdownPart } from './Markdown';

afterEach(cleanup);
// The Markdown renderer's chunk, fetched before the tests (how it arrives is Markdown.test.tsx's).
beforeAll(() => markdownPart.preload(), 30_000);

describe('LongAnswer', () => {
  it('renders a short answer whole as Markdown', async () => {
    const { container } = render(<LongAnswer text={'**bold** answer'} streaming={false} />);
    await waitFor(() => expect(container.querySelector('strong')?.textContent).toBe('bold'));
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('gives only the head of a 1,000,000-character answer to Markdown; "Show all" shows the rest as written, in pieces', async () => {
    const line = 'A line of a very long answer with **some** markdown in it.\n';
    const text = `# Title\n\n${line.repeat(Math.ceil(1_000_000 / line.length))}`.slice(0, 1_000_000);
    const { container } = render(<LongAnswer text={text} streaming />);
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Title'));
    const markdown = container.querySelector('.markdown')!;
    expect(markdown.textContent!.length).toBeLessThanOrEqual(MARKDOWN_HEAD_CHARS);
    expect(container.textContent!.length).toBeLessThan(MARKDOWN_HEAD_CHARS + 200);

    fireEvent.click(screen.getByRole('button', { name: /^Show all 1,000,000 characters/ }));
    const pieces = container.querySelectorAll('.long-answer-rest p');
    expect(pieces.length).toBeGreaterThan(40);
    const shown = (markdown.textContent ?? '').length + [...pieces].reduce((sum, p) => sum + (p.textContent ?? '').length, 0);
    // Everything is on the page once asked for (the head's markup characters aside).
    expect(shown).toBeGreaterThan(990_000);
    expect(container.querySelectorAll('.long-answer-rest strong')).toHaveLength(0);
  });
});
