/**
 * A stuffed description: one written to win searches rather than to describe — the same words over and
 * over ("sum add calculate total sum add …"), or a shout to always pick this tool. Tool search counts
 * each word once anyway; the flag tells the user, and search ranks a flagged tool below the others.
 */
import { finding, type Finding } from './findings';

/** Fewer distinct words than this share of all words (in a description of some length) is stuffing. */
const MIN_DISTINCT_SHARE = 0.4;
const MIN_WORDS = 20;
const SHOUT = /\b(?:always|only)\s+use\s+this\s+tool\b|\buse\s+this\s+tool\s+(?:first|instead|for\s+(?:everything|all))\b/i;

export function stuffingFinding(whole: string): Finding | undefined {
  // The start says enough (a description can be 100 KB).
  const description = whole.slice(0, 4_000);
  const shout = SHOUT.exec(description);
  if (shout) return finding('stuffing', 'pick-me', shout[0], 'a description that tells the model to prefer this tool');
  const words = description.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? [];
  if (words.length < MIN_WORDS) return undefined;
  const distinct = new Set(words);
  if (distinct.size / words.length >= MIN_DISTINCT_SHARE) return undefined;
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4);
  return finding(
    'stuffing',
    'repeated-words',
    top.map(([w, n]) => `${w} ×${n}`).join(', '),
    'the same words repeated to rank higher in search',
  );
}
