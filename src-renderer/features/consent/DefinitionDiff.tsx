import type { DiffLine } from '@contract';

const MARK = { same: ' ', added: '+', removed: '−' } as const;
const WORD = { same: '', added: 'added', removed: 'removed' } as const;

/** The lines to show: unchanged stretches folded to three lines of context around each change. */
export function foldDiff(lines: DiffLine[], context = 3): (DiffLine | 'fold')[] {
  const near = (i: number) => lines.slice(Math.max(0, i - context), i + context + 1).some((line) => line.kind !== 'same');
  const out: (DiffLine | 'fold')[] = [];
  lines.forEach((line, i) => {
    if (line.kind !== 'same' || near(i)) out.push(line);
    else if (out.at(-1) !== 'fold') out.push('fold');
  });
  return out;
}

/** What changed in a tool's definition since it was approved: removed and added lines, with context. */
export function DefinitionDiff({ lines }: { lines: DiffLine[] }) {
  return (
    <pre className="definition-diff" aria-label="What changed in the tool's definition">
      {foldDiff(lines).map((line, i) =>
        line === 'fold' ? (
          <span key={i} className="diff-fold">
            {'  …\n'}
          </span>
        ) : (
          <span key={i} className={`diff-${line.kind}`}>
            {line.kind !== 'same' && <span className="visually-hidden">{WORD[line.kind]}: </span>}
            <span aria-hidden="true">{MARK[line.kind]} </span>
            {line.text}
            {'\n'}
          </span>
        ),
      )}
    </pre>
  );
}
