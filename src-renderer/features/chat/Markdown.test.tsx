import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

afterEach(cleanup);

describe('Markdown', () => {
  it('shows the text as written until its renderer arrives, then renders GFM and highlights code that names its language', async () => {
    const text = '| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~ **new**\n\n```ts\nconst x = 1;\n```';
    const { container } = render(<Markdown text={text} />);
    // The first render anywhere in this file: the renderer's chunk has not been fetched yet.
    expect(container.querySelector('.markdown-pending')?.textContent).toBe(text);
    await waitFor(() => expect(container.querySelector('table')).toBeTruthy());
    expect(container.querySelector('.markdown-pending')).toBeNull();
    expect(container.querySelector('table td')?.textContent).toBe('1');
    expect(container.querySelector('input[type="checkbox"]')).toBeTruthy();
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(container.querySelector('strong')?.textContent).toBe('new');
    expect(container.querySelector('code.hljs .hljs-keyword')?.textContent).toBe('const');
  });

  it('never turns raw HTML into elements, strips javascript: links, and opens links outside', async () => {
    const { container } = render(
      <Markdown
        text={
          '<img src=x onerror="alert(1)"> <script>alert(2)</script> <b>bold?</b>\n\n[click](javascript:alert(3)) [site](https://example.com)\n\n![pixel](https://tracker.example/p.gif)'
        }
      />,
    );
    await waitFor(() => expect(container.querySelector('.markdown-pending')).toBeNull());
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    const links = [...container.querySelectorAll('a')];
    expect(links.find((a) => a.textContent === 'click')?.getAttribute('href') ?? '').not.toContain('javascript');
    const site = links.find((a) => a.textContent === 'site')!;
    expect(site.getAttribute('href')).toBe('https://example.com');
    expect(site.getAttribute('target')).toBe('_blank');
    expect(site.getAttribute('rel')).toContain('noopener');
    expect(container.textContent).toContain('[image: pixel]');
  });
});
