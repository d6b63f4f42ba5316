/**
 * Undoing the usual evasions before the rules read a text: characters that print as nothing split a
 * phrase ("ig\u200Bnore"), letters from other scripts that look Latin ("іgnore" with a Cyrillic і),
 * full-width and other compatibility forms (NFKC), and Unicode tag characters (U+E0000–U+E007F), which
 * carry ASCII invisibly. What was removed is reported too: hidden text is itself a finding.
 */

/** Zero-width characters, bidi controls, the BOM, soft hyphen, word joiner and tag characters. */
const HIDDEN = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** Letters of other scripts that look like Latin ones (Cyrillic and Greek, the common confusables). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ѕ: 's',
  т: 't',
  у: 'y',
  х: 'x',
  ԁ: 'd',
  ӏ: 'l',
  ɡ: 'g',
  А: 'A',
  В: 'B',
  С: 'C',
  Е: 'E',
  Н: 'H',
  І: 'I',
  Ј: 'J',
  К: 'K',
  М: 'M',
  О: 'O',
  Р: 'P',
  Ѕ: 'S',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  τ: 't',
  ι: 'i',
  κ: 'k',
  υ: 'u',
  ε: 'e',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Χ: 'X',
  Υ: 'Y',
  Ζ: 'Z',
};
const HOMOGLYPH_ANY = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'g');

export interface Normalized {
  /** The text as the rules read it. */
  text: string;
  /** Hidden characters removed (each as `U+XXXX`), at most a few. */
  hidden: string[];
  /** ASCII smuggled in tag characters, decoded (empty when none). */
  tagText: string;
  /** Whether any letter was read as its Latin look-alike. */
  homoglyphs: boolean;
}

export function normalize(input: string): Normalized {
  const hidden: string[] = [];
  let tagText = '';
  const stripped = input.replace(HIDDEN, (char) => {
    const code = char.codePointAt(0)!;
    if (code >= 0xe0000 && code <= 0xe007f) {
      if (code >= 0xe0020 && code < 0xe007f) tagText += String.fromCharCode(code - 0xe0000);
    } else if (hidden.length < 5) hidden.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
    return '';
  });
  let homoglyphs = false;
  const folded = stripped.normalize('NFKC').replace(HOMOGLYPH_ANY, (char) => {
    homoglyphs = true;
    return HOMOGLYPHS[char] ?? char;
  });
  return { text: folded, hidden, tagText, homoglyphs };
}

/** Shorter runs of Base64 characters cannot hide a sentence; longer ones are not decoded. */
const MIN_BASE64 = 24;
const MAX_BASE64 = 4096;

/** Whether a UTF-16 code is a Base64 character (A–Z, a–z, 0–9, +, /). */
function isBase64(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47;
}

/**
 * Sentences hidden in Base64: each long run decoded, kept when it reads as text. At most a few.
 * A loop over the characters, not a regex: `[…]{24,}` retries at every position of each shorter run.
 */
export function decodedBase64(text: string, max = 8): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length && out.length < max; i++) {
    if (i < text.length && isBase64(text.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= MIN_BASE64 && i - start <= MAX_BASE64) {
      const decoded = Buffer.from(text.slice(start, i), 'base64').toString('utf8');
      // Text, not bytes: printable, with spaces between words.
      if (/^[\x20-\x7E\r\n\t]+$/.test(decoded) && /[a-z]{3,} [a-z]{2,}/i.test(decoded)) out.push(decoded);
    }
    start = -1;
  }
  return out;
}
