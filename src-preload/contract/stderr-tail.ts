/**
 * A failure reason may end with the server's last stderr lines (the host appends them so that an error
 * read anywhere — a chat error, a notification, a copied report — says what the server wrote). A screen
 * that also shows those lines on their own splits them off, so a stack trace shows once.
 */
const HEADING = '\nLast stderr lines:\n';

/** A block of the last stderr lines to append to a message, or '' when there are none. */
export function formatStderrTail(lines: readonly string[]): string {
  const shown = lines.filter((line) => line.trim() !== '');
  if (shown.length === 0) return '';
  return `${HEADING}${shown.map((line) => `  ${line}`).join('\n')}`;
}

/** The reason without the block `formatStderrTail` appended, and the block's lines (unindented). */
export function splitStderrTail(reason: string): { summary: string; tail: string[] } {
  const at = reason.indexOf(HEADING);
  if (at < 0) return { summary: reason, tail: [] };
  const tail = reason
    .slice(at + HEADING.length)
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''));
  return { summary: reason.slice(0, at), tail };
}
