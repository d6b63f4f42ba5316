import { memo, useContext, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../../ui/CopyButton';
import { MarkdownLinkContext } from './markdown-links';

const REMARK: Options['remarkPlugins'] = [remarkGfm];
// Only code blocks that name their language are highlighted: guessing costs time on every render.
const REHYPE: Options['rehypePlugins'] = [[rehypeHighlight, { detect: false }]];

/** The shape of a syntax-tree node, as far as reading its text goes. */
interface TextNode {
  type: string;
  value?: string;
  children?: TextNode[];
}

/** The plain text of a node (a code block's source, without the highlighting's markup). */
function textOf(node: TextNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

/**
 * A link opens outside the app (the window never navigates away), unless the Markdown's place says
 * otherwise (`MarkdownLinkContext`: a resource's relative links are read through its server). Read
 * at render, so the cached trees below stay right wherever they are shown.
 */
function MarkdownLink({ href, children }: { href?: string; children?: ReactNode }) {
  const onLink = useContext(MarkdownLinkContext);
  const follow = onLink ? (event: MouseEvent<HTMLAnchorElement>) => onLink(href ?? '', event) : undefined;
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" onClick={follow} onAuxClick={follow}>
      {children}
    </a>
  );
}

/**
 * Links per `MarkdownLink`; images from the model are not fetched; code blocks get a Copy button
 * (their source, as written).
 */
const COMPONENTS: Components = {
  pre: ({ node, children }) => {
    const source = textOf(node as TextNode | undefined).replace(/\n$/, '');
    return (
      <div className="code-block">
        <CopyButton label="Copy code" text={source} className="code-copy" />
        <pre>{children}</pre>
      </div>
    );
  },
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  img: ({ alt, src }) => <span className="md-image">[image: {alt || (typeof src === 'string' ? src : '')}]</span>,
};

function renderMarkdown(text: string): ReactElement {
  // react-markdown's synchronous component is a pure function of its props (no hooks).
  return ReactMarkdown({ children: text, remarkPlugins: REMARK, rehypePlugins: REHYPE, components: COMPONENTS, skipHtml: true });
}

/**
 * Rendered markdown of finished messages, most recently used last. Scrolling a long history mounts
 * and unmounts rows all the time; parsing and highlighting again each time would cost every frame.
 */
const rendered = new Map<string, ReactElement>();
const CACHE_ENTRIES = 500;

function cachedMarkdown(text: string): ReactElement {
  const hit = rendered.get(text);
  if (hit) {
    rendered.delete(text);
    rendered.set(text, hit);
    return hit;
  }
  const element = renderMarkdown(text);
  rendered.set(text, element);
  if (rendered.size > CACHE_ENTRIES) rendered.delete(rendered.keys().next().value!);
  return element;
}

/**
 * The heavy half of `Markdown` (react-markdown, remark-gfm, highlight.js), in its own chunk: the
 * first paint does not wait for it (see Markdown.tsx).
 *
 * Model text as markdown: GFM (tables, task lists, strikethrough), highlighted code. Safe by
 * construction: no rehype-raw, and `skipHtml`, so raw HTML in the text never becomes elements, and
 * react-markdown's URL check removes `javascript:` and similar links. `streaming` text changes every
 * few tens of milliseconds, so it is rendered fresh instead of filling the cache.
 */
const MarkdownRenderer = memo(function MarkdownRenderer({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return <div className="markdown">{streaming ? renderMarkdown(text) : cachedMarkdown(text)}</div>;
});

export default MarkdownRenderer;
