import { useMemo, useState } from 'react';
import { Markdown } from '../../chat/Markdown';
import { looksLikeMarkdown } from './markdown-text';

/**
 * A text a tool or task returned: Markdown shown formatted (the chat's renderer: no raw HTML, links
 * open outside the app, images not fetched), anything else as written. Formatted text keeps a
 * switch back to the exact text, so nothing the server sent is hidden by the formatting.
 */
export function ResultText({ text, className }: { text: string; className?: string }) {
  const markdown = useMemo(() => looksLikeMarkdown(text), [text]);
  const [asText, setAsText] = useState(false);
  if (!markdown) return <pre className={className}>{text}</pre>;
  return (
    <div className="result-markdown">
      {asText ? <pre className={className}>{text}</pre> : <Markdown text={text} />}
      <button type="button" className="link result-format-toggle" aria-pressed={asText} onClick={() => setAsText(!asText)}>
        Show as text
      </button>
    </div>
  );
}
