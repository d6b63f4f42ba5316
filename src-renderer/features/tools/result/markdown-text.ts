/**
 * Whether a tool's (or task's) text result reads as Markdown. Results carry no type for their text,
 * and most are plain lines or JSON, which Markdown would reflow (single line breaks joined, `*`
 * eaten); so only text with Markdown's own marks — a heading, a list, a fence, a table, a link,
 * emphasis, a quote — is shown formatted, and the user can always switch back to the text as sent.
 */

/** Above this, parsing would cost more than it helps: the text shows as it is. */
export const MARKDOWN_MAX_CHARS = 100_000;

const MARKS = [
  /^#{1,6} \S/m, // heading
  /^```/m, // fenced code
  /^\s{0,3}(?:[-*+]|\d{1,3}[.)]) \S.*\n\s{0,3}(?:[-*+]|\d{1,3}[.)]) \S/m, // a list of two or more items
  /^\|.*\|\s*\n\|?\s*:?-{3,}/m, // table header and its rule
  /\[[^\]\n]+\]\((?:https?:|mailto:|#|\/)[^)\s]*\)/, // link
  /(?:\*\*|__)[^*_\n]+(?:\*\*|__)/, // strong
  /^> \S/m, // quote
];

export function looksLikeMarkdown(text: string): boolean {
  if (text.length > MARKDOWN_MAX_CHARS) return false;
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    try {
      JSON.parse(text);
      return false;
    } catch {
      // not JSON: look further
    }
  }
  return MARKS.some((mark) => mark.test(text));
}
