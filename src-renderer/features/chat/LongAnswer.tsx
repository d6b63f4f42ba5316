import { memo, useState } from 'react';
import { Markdown } from './Markdown';

/** Characters of an answer rendered as Markdown; the rest waits behind "Show all". */
export const MARKDOWN_HEAD_CHARS = 8_000;
/** Characters per piece of the rest once shown (each its own text node: no single huge layout run). */
const PIECE_CHARS = 20_000;

/** Where the head ends: at the last line break before the cut, so a paragraph is not split mid-line. */
export function headEnd(text: string): number {
  if (text.length <= MARKDOWN_HEAD_CHARS) return text.length;
  const newline = text.lastIndexOf('\n', MARKDOWN_HEAD_CHARS);
  return newline > MARKDOWN_HEAD_CHARS / 2 ? newline + 1 : MARKDOWN_HEAD_CHARS;
}

/**
 * A model answer's text. Markdown (parsing, highlighting) costs time in the length of the text, and a
 * streamed answer is rendered again on every batch: an answer of megabytes would hold the page for
 * seconds each time. So only its head goes to the Markdown renderer (the same string while the rest
 * streams in, so it is not rendered again); the rest is shown as written, in pieces, on "Show all".
 */
export const LongAnswer = memo(function LongAnswer({ text, streaming }: { text: string; streaming: boolean }) {
  const [all, setAll] = useState(false);
  const end = headEnd(text);
  if (end === text.length) return <Markdown text={text} streaming={streaming} />;
  const rest = text.length - end;
  return (
    <div className="long-answer">
      <Markdown text={text.slice(0, end)} />
      {all ? (
        <div className="long-answer-rest">
          {pieces(text, end).map((piece, i) => (
            <p key={i}>{piece}</p>
          ))}
        </div>
      ) : (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show all {text.length.toLocaleString('en-US')} characters ({rest.toLocaleString('en-US')} more, as written)
        </button>
      )}
    </div>
  );
});

function pieces(text: string, from: number): string[] {
  const out: string[] = [];
  for (let i = from; i < text.length; i += PIECE_CHARS) out.push(text.slice(i, i + PIECE_CHARS));
  return out;
}
