import { useContext, useState, type MouseEvent } from 'react';
import { formatBytes, type ResourceContentView, type ResourceReadView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Markdown } from '../chat/Markdown';
import { MarkdownLinkContext } from '../chat/markdown-links';
import { MoreText, type LoadPart } from '../tools/result/ResultBlocks';
import { downloadContent, fileNameFor } from './download';
import { LinkedResourceOpener } from './linked-resource';
import { resolveResourceLink } from './resource-links';
import { Alert } from '../../ui/Alert';

const isMarkdown = (mime?: string) => /^text\/(x-)?markdown\b/i.test(mime ?? '');
const isJson = (mime?: string) => /^application\/([\w.-]+\+)?json\b/i.test(mime ?? '');
/** Shown as their source, never rendered: a server's HTML or SVG could run script. */
const isMarkup = (mime?: string) => /^(text\/html|application\/xhtml\+xml|image\/svg\+xml)\b/i.test(mime ?? '');

function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** Every content item of a read, each shown by its type. */
export function ResourceContents({ read }: { read: ResourceReadView }) {
  const api = useAppStore((s) => s.api);
  const load: LoadPart = (part, offset, limit) =>
    api.getResourcePart({ readId: read.readId, index: part as number, offset, ...(limit ? { limit } : {}) });
  if (read.contents.length === 0) return <p className="muted">The server returned no content for this resource.</p>;
  return (
    <div className="resource-contents">
      {read.contents.length > 1 && <p className="muted">{read.contents.length} content items in this answer.</p>}
      {read.contents.map((content, index) => (
        <ContentItem key={index} content={content} index={index} load={load} fallbackName={read.uri} serverName={read.serverName} />
      ))}
    </div>
  );
}

function ContentItem({
  content,
  index,
  load,
  fallbackName,
  serverName,
}: {
  content: ResourceContentView;
  index: number;
  load: LoadPart;
  fallbackName: string;
  serverName: string;
}) {
  const [saving, setSaving] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [linkNote, setLinkNote] = useState<string | null>(null);
  const openLinked = useContext(LinkedResourceOpener);
  // A link in this content: web links open outside as ever; relative ones are read through the server.
  const followLink = (href: string, event: MouseEvent<HTMLAnchorElement>) => {
    const target = resolveResourceLink(href, content.uri, serverName);
    if (target.kind === 'external') return;
    event.preventDefault();
    setLinkNote(null);
    if (target.kind === 'resource') {
      if (openLinked) openLinked(target.uri);
      else setLinkNote(`“${href}” is another resource of ${serverName}: open this one from ${serverName}’s Resources tab to follow it.`);
    } else if (target.kind === 'refused') setLinkNote(target.reason);
  };
  const mimeType = content.mimeType ?? (content.kind === 'text' ? 'text/plain' : 'application/octet-stream');
  const size = content.kind === 'text' ? (content.truncated?.total ?? content.text.length) : content.bytes;
  const download = async () => {
    setSaving(0);
    setError(null);
    try {
      await downloadContent({
        fileName: fileNameFor(content.uri, fallbackName.replace(/^\w+:\/*/, '') || 'resource'),
        mimeType,
        base64: content.kind === 'blob',
        ...(content.kind === 'text' && !content.truncated ? { whole: content.text } : {}),
        ...(content.kind === 'blob' && content.data !== undefined ? { whole: content.data } : {}),
        load: (offset, limit) => load(index, offset, limit),
        onProgress: (fraction) => setSaving(fraction),
      });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(null);
    }
  };
  return (
    <section className="resource-content" aria-label={`Content ${index + 1}: ${mimeType}`}>
      <header className="resource-content-head">
        <code>{content.uri}</code>{' '}
        <span className="muted">
          · {mimeType} · {formatBytes(size)}
        </span>{' '}
        <button type="button" className="link" disabled={saving !== null} onClick={() => void download()}>
          {saving === null ? 'Download' : `Downloading… ${Math.round(saving * 100)}%`}
        </button>
        {error && <span className="field-error"> {error}</span>}
      </header>
      <Alert message={linkNote} />
      <MarkdownLinkContext.Provider value={followLink}>
        <ContentBody content={content} index={index} load={load} />
      </MarkdownLinkContext.Provider>
    </section>
  );
}

function ContentBody({ content, index, load }: { content: ResourceContentView; index: number; load: LoadPart }) {
  if (content.kind === 'blob') {
    const src = content.data !== undefined ? `data:${content.mimeType};base64,${content.data}` : undefined;
    if (src && content.mimeType?.startsWith('image/')) return <img className="resource-image" src={src} alt={`Image ${content.uri}`} />;
    if (src && content.mimeType?.startsWith('audio/')) return <audio controls src={src} aria-label={`Audio ${content.uri}`} />;
    return (
      <p className="muted">
        Binary content ({content.mimeType ?? 'unknown type'}, {formatBytes(content.bytes)}): use Download to save it.
      </p>
    );
  }
  const { mimeType, text, truncated } = content;
  if (!truncated && isMarkdown(mimeType)) return <Markdown text={text} />;
  if (!truncated && isJson(mimeType)) {
    const pretty = prettyJson(text);
    if (pretty !== undefined) return <pre className="result-json">{pretty}</pre>;
  }
  return (
    <>
      {isMarkup(mimeType) && <p className="hint">Shown as source: Patchbay never runs HTML or SVG from a server.</p>}
      <MoreText text={text} truncated={truncated} part={index} load={load} className="result-text" />
    </>
  );
}
