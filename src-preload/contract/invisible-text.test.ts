import { describe, expect, it } from 'vitest';
import { countHiddenChars, escapeHiddenChars, hasHiddenChars, hiddenCharName, revealHiddenChars } from './invisible-text';

const HIDDEN = [
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069],
  ...[0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0xfeff, 0x2060, 0x00ad, 0x061c, 0xe0041],
  ...[0x00, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x7f, 0x85, 0x2028, 0x2029, 0x00a0, 0x2007, 0x3000, 0xfe0f, 0x3164],
];

describe('hidden characters', () => {
  it.each(HIDDEN.map((code) => [code.toString(16).toUpperCase().padStart(4, '0'), code]))(
    'U+%s is hidden and shown as its escape',
    (hex, code) => {
      const text = `a${String.fromCodePoint(code)}b`;
      expect(hasHiddenChars(text)).toBe(true);
      expect(escapeHiddenChars(text)).toBe(`a\\u{${hex}}b`);
    },
  );

  it('leaves ordinary text alone, accents and other scripts included', () => {
    for (const text of ['npx -y @scope/pkg', 'Grüße', 'שלום', 'مرحبا', '日本語', '🙂', 'a b']) {
      expect(hasHiddenChars(text)).toBe(false);
      expect(escapeHiddenChars(text)).toBe(text);
      expect(revealHiddenChars(text)).toEqual([{ text }]);
    }
  });

  it('splits text into ordinary runs and named hidden characters, for the window to style', () => {
    expect(revealHiddenChars('\u202Eexe.js\u200B')).toEqual([
      { hidden: '\u202E', escape: '\\u{202E}', name: 'right-to-left override (U+202E)' },
      { text: 'exe.js' },
      { hidden: '\u200B', escape: '\\u{200B}', name: 'zero-width space (U+200B)' },
    ]);
    expect(countHiddenChars('a\u2066b\u2069c\uFEFF')).toBe(3);
    expect(hiddenCharName('\u0007')).toBe('invisible character (U+0007)');
  });
});
