/**
 * Text that prints nothing or turns the text around it: bidi overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), zero-width characters and marks (U+200B–U+200F), the byte-order mark (U+FEFF), every
 * other format (Cf) or control (Cc) character, line/paragraph separators, spaces other than the plain
 * space, and variation selectors or fillers that render as nothing. A command line holding one can read
 * on screen otherwise than it runs, so everywhere a command is shown these appear as visible escapes
 * (`\u{202E}`) instead. The one place that decides what is hidden, shared by the host and the window.
 */

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u3164\uFFA0]|\u1160|\p{Variation_Selector}/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

const NAMES: Record<number, string> = {
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x2060: 'word joiner',
  0xfeff: 'zero-width no-break space',
  0x00a0: 'no-break space',
  0x00ad: 'soft hyphen',
  0x0009: 'tab',
  0x000a: 'line feed',
  0x000d: 'carriage return',
};

/** A run of ordinary text, or one hidden character with its escape and what it is. */
export type RevealedPart = { text: string } | { hidden: string; escape: string; name: string };

/** The escape shown for one hidden character: `\u{202E}`. */
export function escapeOf(char: string): string {
  return `\\u{${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/** What a hidden character is, in words (`right-to-left override (U+202E)`). */
export function hiddenCharName(char: string): string {
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  const name = NAMES[code] ?? (code >= 0x202a && code <= 0x2069 ? 'direction control' : 'invisible character');
  return `${name} (U+${hex})`;
}

/** Whether the text holds anything that prints as nothing or changes direction. */
export function hasHiddenChars(text: string): boolean {
  return HIDDEN.test(text);
}

/** How many hidden characters the text holds. */
export function countHiddenChars(text: string): number {
  return text.match(HIDDEN_ALL)?.length ?? 0;
}

/** The text with each hidden character replaced by its escape: what one may put in a sentence or a title. */
export function escapeHiddenChars(text: string): string {
  return text.replace(HIDDEN_ALL, escapeOf);
}

/** The text split into ordinary runs and hidden characters, for the window to style the escapes distinctly. */
export function revealHiddenChars(text: string): RevealedPart[] {
  const parts: RevealedPart[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN_ALL)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ hidden: match[0], escape: escapeOf(match[0]), name: hiddenCharName(match[0]) });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
