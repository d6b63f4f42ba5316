import type { ToolHints } from '@contract';

const WORDS: [keyof ToolHints, string, string][] = [
  ['readOnlyHint', 'read-only', 'may change things'],
  ['destructiveHint', 'may destroy or overwrite', 'not destructive'],
  ['idempotentHint', 'idempotent (repeating it changes nothing more)', 'not idempotent'],
  ['openWorldHint', 'reaches outside systems', 'stays within its own world'],
];

/**
 * The server's own description of a tool's behaviour. Shown as hints from the server — unverified,
 * they grant nothing: a server can claim "read-only" and still delete files.
 */
export function AnnotationHints({ hints }: { hints?: ToolHints }) {
  const items = WORDS.filter(([key]) => typeof hints?.[key] === 'boolean').map(([key, yes, no]) => (hints?.[key] ? yes : no));
  return (
    <div className="tool-hints">
      <p className="hint">
        <strong>Hints from the server</strong> (its own claims, not verified; they never allow anything):
      </p>
      {items.length > 0 ? (
        <ul aria-label="Hints from the server">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">None given.</p>
      )}
    </div>
  );
}
