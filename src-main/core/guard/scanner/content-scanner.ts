/**
 * The content scanner: runs the local rules (rules.ts) over what a server sends before the model reads
 * it — a tool's description when listed or changed, a server's instructions, each result, resource
 * and prompt message — after undoing the usual evasions (normalize.ts). Nothing is downloaded; a
 * classifier can be plugged in (`ContentClassifier`) and its findings join the rules'.
 *
 * Bounded: a long text is read in windows (with an overlap, so a phrase across two windows is found),
 * and the async scan yields to the event loop between windows, so a 10 MB result never holds the
 * window up for long; past `maxChars` or `maxMs` it stops and says how far it read.
 */
import { decodedBase64, normalize } from './normalize';
import { finding, MAX_FINDINGS, uniqueFindings, type Finding } from './findings';
import { RULES } from './rules';
import { stuffingFinding } from './stuffing';

/** A classifier's verdict on one text (e.g. a local model); its findings join the rules'. */
export type ContentClassifier = (text: string, signal?: AbortSignal) => Promise<Finding[]>;

export interface ScanLimits {
  /** Characters read at most (the rest is not scanned, and the report says so). */
  maxChars: number;
  /** Time spent at most, in milliseconds. */
  maxMs: number;
  /** Characters per window: the event loop gets a turn between two. */
  windowChars: number;
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = { maxChars: 16 * 1024 * 1024, maxMs: 2_000, windowChars: 64 * 1024 };

/** A phrase split across two windows is still read whole. */
const OVERLAP = 512;

export interface ScanReport {
  findings: Finding[];
  /** Characters read (equal to the text's length unless a bound stopped the scan). */
  scannedChars: number;
  /** Set when a bound stopped the scan: what was left unread, in words. */
  incomplete?: string;
}

/** Runs the rules over one window of text (normalised first), with the evasions it undid noted. */
export function scanWindow(raw: string): Finding[] {
  const normalized = normalize(raw);
  const found: Finding[] = [];
  if (normalized.hidden.length > 0)
    found.push(
      finding('hidden-unicode', 'hidden-characters', normalized.hidden.join(' '), 'characters that print as nothing or turn text around'),
    );
  if (normalized.tagText)
    found.push(finding('hidden-unicode', 'tag-characters', normalized.tagText, 'text hidden in Unicode tag characters'));
  const note =
    normalized.hidden.length > 0 || normalized.homoglyphs ? 'after removing hidden characters and look-alike letters' : undefined;
  const texts: [string, string | undefined][] = [[normalized.text, note]];
  if (normalized.tagText) texts.push([normalized.tagText, 'in Unicode tag characters']);
  for (const decoded of decodedBase64(normalized.text)) texts.push([decoded, 'in Base64']);
  for (const [text, how] of texts) {
    for (const rule of RULES) {
      rule.pattern.lastIndex = 0;
      for (const match of text.matchAll(rule.pattern)) {
        found.push(finding(rule.kind, rule.id, match[0].trim(), how));
        if (found.length >= MAX_FINDINGS) return found;
      }
    }
  }
  return found;
}

export class ContentScanner {
  constructor(
    private readonly limits: ScanLimits = DEFAULT_SCAN_LIMITS,
    private readonly classifier?: ContentClassifier,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A short text (a description, instructions), at once: the first window's worth is read. */
  scanShort(text: string, options: { description?: boolean } = {}): Finding[] {
    const found = scanWindow(text.slice(0, this.limits.windowChars));
    const stuffed = options.description ? stuffingFinding(text) : undefined;
    return uniqueFindings(stuffed ? [...found, stuffed] : found);
  }

  /** Any text, window by window, giving the event loop a turn between windows. */
  async scan(text: string, signal?: AbortSignal): Promise<ScanReport> {
    const { maxChars, maxMs, windowChars } = this.limits;
    const started = this.now();
    const findings: Finding[] = [];
    let at = 0;
    let incomplete: string | undefined;
    while (at < text.length && findings.length < MAX_FINDINGS) {
      if (at >= maxChars || this.now() - started > maxMs || signal?.aborted) {
        incomplete = `scanned the first ${at.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters`;
        break;
      }
      const end = Math.min(text.length, at + windowChars);
      findings.push(...scanWindow(text.slice(Math.max(0, at - OVERLAP), end)));
      at = end;
      if (at < text.length) await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.classifier && !signal?.aborted) findings.push(...(await this.classifier(text.slice(0, maxChars), signal)));
    return {
      findings: uniqueFindings(findings).slice(0, MAX_FINDINGS),
      scannedChars: Math.min(at, text.length),
      ...(incomplete ? { incomplete } : {}),
    };
  }
}
