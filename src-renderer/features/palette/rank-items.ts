/**
 * The palette's ranking: pure, so it is tested without the dialog.
 */
import { defaultFilter } from 'cmdk';
import { PALETTE_GROUPS, type PaletteGroup, type PaletteItem } from './palette-items';

/** One group of matches, as the palette lists it. */
export interface RankedGroup {
  group: PaletteGroup;
  items: PaletteItem[];
}

/**
 * The items that match what was typed, best first (cmdk's loose scoring over the label, detail and
 * keywords), grouped in the order of each group's best match. Ranked here rather than by cmdk, whose
 * own sorting leaves the groups in their first order.
 */
export function rankItems(items: readonly PaletteItem[], search: string): RankedGroup[] {
  const query = search.trim();
  const ranked = query
    ? items
        .map((item, index) => ({
          item,
          index,
          score: defaultFilter([item.label, item.detail ?? '', ...(item.keywords ?? [])].join(' '), query),
        }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || a.index - b.index)
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
