/**
 * What the content scanner reports: each finding names its kind, the rule that matched and the text
 * it matched (shown on the tool card, so the user sees why), in one shape for rules and classifiers.
 */
import type { ContentFlag } from '@contract';

export type Finding = ContentFlag;

/** Most findings kept per scan (the first ones say enough; a hostile result could match thousands). */
export const MAX_FINDINGS = 20;
/** Characters of matched text kept per finding. */
export const MAX_MATCH_CHARS = 160;

/** A finding with its matched text cut to what a card shows. */
export function finding(kind: Finding['kind'], rule: string, match: string, note?: string): Finding {
  const text = match.length > MAX_MATCH_CHARS ? `${match.slice(0, MAX_MATCH_CHARS)}…` : match;
  return { kind, rule, match: text, ...(note ? { note } : {}) };
}

/** Findings without repeats of one rule and match. */
export function uniqueFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.rule}\0${f.match}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
