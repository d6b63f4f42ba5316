import { memo, Suspense } from 'react';
import { lazyPart } from '../../ui/lazy-part';

/** react-markdown, remark-gfm and highlight.js: the largest part of the renderer, fetched on first use. */
export const markdownPart = lazyPart(async () => (await import('./MarkdownRenderer')).default);

/**
 * Model text as markdown (GFM, highlighted code; see MarkdownRenderer.tsx for what is safe and why).
 * Until the renderer's chunk has arrived, the text shows as it is, so nothing waits for it to appear.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const Renderer = markdownPart.Component;
  return (
    <Suspense fallback={<div className="markdown markdown-pending">{text}</div>}>
      <Renderer text={text} streaming={streaming} />
    </Suspense>
  );
});
