import { useState, type ReactNode } from 'react';
import { formatBytes, type ResultBlockView, type ToolResultSlice, type Truncation } from '@contract';
import { ResourceLinkView } from '../../resources/ResourceLinkView';
import { messageOf } from '../../../ui/call-errors';
import { ResultText } from './ResultText';

/** Reads more of a cut piece: `part` is the block index or 'structured'. */
export type LoadPart = (part: number | 'structured', offset: number, limit?: number) => Promise<ToolResultSlice>;

/** A text the preview may have cut: shows what came, and the rest a chunk at a time on demand. */
export function MoreText({
  text,
  truncated,
  part,
  load,
  className,
  markdown = false,
}: {
  text: string;
  truncated?: Truncation;
  part: number | 'structured';
  load: LoadPart;
  className?: string;
  /** A result's text: shown formatted when it reads as Markdown (see ResultText). */
  markdown?: boolean;
}) {
  const [extra, setExtra] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = text.length + extra.length;
  const total = truncated?.total ?? text.length;
  const more = async () => {
    setBusy(true);
    setError(null);
    try {
      const slice = await load(part, shown);
      setExtra((current) => current + slice.text);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {markdown ? (
        <ResultText text={text + extra} className={className} />
      ) : (
        <pre className={className}>
          {text}
          {extra}
        </pre>
      )}
      {shown < total && (
        <p className="result-more">
          <span className="muted">
            Showing {formatBytes(shown)} of {formatBytes(total)}.{' '}
          </span>
          <button type="button" className="link" disabled={busy} onClick={() => void more()}>
            {busy ? 'Loading…' : 'Show more'}
          </button>
          {error && <span className="field-error"> {error}</span>}
        </p>
      )}
    </>
  );
}

/** An image or audio clip; media too large for the preview loads on request. */
function Media({
  block,
  index,
  load,
  source,
}: {
  block: Extract<ResultBlockView, { type: 'image' | 'audio' }>;
  index: number;
  load: LoadPart;
  source: string;
}) {
  const [data, setData] = useState(block.data);
  const [error, setError] = useState<string | null>(null);
  const fetchAll = async () => {
    try {
      let text = '';
      for (let total = Infinity; text.length < total;) {
        const slice = await load(index, text.length, 1_000_000);
        total = slice.total;
        text += slice.text;
        if (slice.text.length === 0) break;
      }
      setData(text);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  const what = `${block.type === 'image' ? 'Image' : 'Audio'} from ${source} (${block.mimeType}, ${formatBytes(block.bytes)})`;
  if (!data) {
    return (
      <p className="result-media-omitted">
        {what} is too large to preview.{' '}
        <button type="button" className="link" onClick={() => void fetchAll()}>
          Load it
        </button>
        {error && <span className="field-error"> {error}</span>}
      </p>
    );
  }
  const src = `data:${block.mimeType};base64,${data}`;
  return block.type === 'image' ? (
    <figure className="result-image">
      <img src={src} alt={what} />
    </figure>
  ) : (
    <figure className="result-audio">
      <audio controls src={src} aria-label={what} />
      <figcaption className="muted">{what}</figcaption>
    </figure>
  );
}

/** Renders the `Open` control of a resource link or embedded resource (given by the caller, which knows the server). */
export type RenderOpen = (uri: string, name: string) => ReactNode;

/**
 * One content block of a result, for people. `source` names the tool and server ("get-sum on
 * everything"); `renderOpen` makes resource links and embedded resources openable.
 */
export function ResultBlock({
  block,
  index,
  load,
  source,
  renderOpen,
}: {
  block: ResultBlockView;
  index: number;
  load: LoadPart;
  source: string;
  renderOpen?: RenderOpen;
}) {
  switch (block.type) {
    case 'text':
      return <MoreText text={block.text} truncated={block.truncated} part={index} load={load} className="result-text" markdown />;
    case 'image':
    case 'audio':
      return <Media block={block} index={index} load={load} source={source} />;
    case 'resource_link':
      return <ResourceLinkView link={block} open={block.uri ? renderOpen?.(block.uri, block.name) : undefined} />;
    case 'resource':
      return (
        <div className="result-resource">
          <span className="result-kind">Embedded resource</span> <code>{block.uri}</code>
          {block.mimeType && <span className="muted"> · {block.mimeType}</span>} {block.uri && renderOpen?.(block.uri, block.uri)}
          {block.text !== undefined && (
            <MoreText
              text={block.text}
              truncated={block.truncated}
              part={index}
              load={load}
              className="result-text"
              markdown={block.mimeType === 'text/markdown'}
            />
          )}
          {block.blobBytes !== undefined && <p className="muted">Binary content, {formatBytes(block.blobBytes)}</p>}
        </div>
      );
    case 'other':
      return (
        <div className="result-resource">
          <span className="result-kind">Content this version does not know</span>
          <MoreText text={block.json} truncated={block.truncated} part={index} load={load} className="result-json" />
        </div>
      );
  }
}
