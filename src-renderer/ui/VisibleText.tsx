import { revealHiddenChars } from '@contract';
import './visible-text.css';

/**
 * Text with every invisible or direction-changing character shown as a visible, distinctly styled
 * escape (`\u{202E}`), so what is on screen is what runs. Use it wherever a command, an argument,
 * an environment value or a URL from somewhere else is shown.
 */
export function VisibleText({ text }: { text: string }) {
  return (
    <>
      {revealHiddenChars(text).map((part, index) =>
        'text' in part ? (
          part.text
        ) : (
          <mark key={index} className="hidden-char" title={part.name} data-testid="hidden-char">
            {part.escape}
          </mark>
        ),
      )}
    </>
  );
}

/**
 * Text that already holds escapes (`\u{202E}`, as `escapeHiddenChars` writes them, e.g. a risk's
 * subject), with those escapes styled like the ones `VisibleText` shows.
 */
export function EscapedText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(\\u\{[0-9A-F]{4,6}\})/).map((piece, index) =>
        index % 2 === 1 ? (
          <mark key={index} className="hidden-char">
            {piece}
          </mark>
        ) : (
          piece
        ),
      )}
    </>
  );
}
