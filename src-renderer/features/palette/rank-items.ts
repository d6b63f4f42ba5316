/**
 * The palette's ranking: pure, so it is tested without the dialog.
 */
import fuzzysort from 'fuzzysort';
import { PALETTE_GROUPS, type PaletteGroup, type PaletteItem } from './palette-items';

/** One group of matches, as the palette lists it. */
export interface RankedGroup {
  group: PaletteGroup;
  items: PaletteItem[];
}

/** What an item is found by: its label first, then its detail and keywords. */
const KEYS = [
  (item: PaletteItem) => item.label,
  (item: PaletteItem) => item.detail ?? '',
  (item: PaletteItem) => (item.keywords ?? []).join(' '),
];

/**
 * Scores run from 0 to 1. Below this a match is letters scattered across unrelated words ("get" in
 * trigger-elicitation-request scores about 0.3); "rstrt alp" still finds Restart alpha (about 0.35).
 */
const MATCH_THRESHOLD = 0.3;

/**
 * The items that match what was typed, best first, grouped in the order of each group's best match.
 * Matched by fuzzysort, which wants the typed letters in order and scores runs and word starts, so "gsum"
 * finds get-sum (and what names it) rather than every tool whose words hold those letters somewhere, as
 * cmdk's looser scoring did. Ranked here rather than by cmdk, whose own sorting leaves the groups in
 * their first order.
 */
export function rankItems(items: readonly PaletteItem[], search: string): RankedGroup[] {
  const query = search.trim();
  const ranked = query
    ? fuzzysort
        .go(query, items, { keys: KEYS, threshold: MATCH_THRESHOLD })
        .map((result, order) => ({ item: result.obj, score: result.score, order }))
        .sort((a, b) => b.score - a.score || items.indexOf(a.item) - items.indexOf(b.item) || a.order - b.order)
        .map((r) => r.item)
    : PALETTE_GROUPS.flatMap((group) => items.filter((item) => item.group === group));
  const groups: RankedGroup[] = [];
  for (const item of ranked) {
    const existing = groups.find((g) => g.group === item.group);
    if (existing) existing.items.push(item);
    else groups.push({ group: item.group, items: [item] });
  }
  return groups;
}
