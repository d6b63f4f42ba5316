/**
 * What changed in a tool's definition since the user approved it, as a line diff of the pretty
 * canonical JSON (so key order never shows up as a change). Definitions are small; past a size
 * where the quadratic LCS would cost too much, the diff degrades to "all removed, all added".
 */
import type { DiffLine } from '@contract';
import { prettyJson } from '../tool-definition/canonical-json';
import type { ToolDefinition } from '../tool-definition/definition';

const MAX_CELLS = 4_000_000;

/** Line diff of `before` → `after` (longest common subsequence). */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  if (n * m > MAX_CELLS) {
    return [...before.map((text) => ({ kind: 'removed' as const, text })), ...after.map((text) => ({ kind: 'added' as const, text }))];
  }
  // lcs[i][j]: length of the LCS of before[i…] and after[j…].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = before[i] === after[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      out.push({ kind: 'same', text: before[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      out.push({ kind: 'removed', text: before[i++] });
    } else {
      out.push({ kind: 'added', text: after[j++] });
    }
  }
  while (i < n) out.push({ kind: 'removed', text: before[i++] });
  while (j < m) out.push({ kind: 'added', text: after[j++] });
  return out;
}

/** The diff between an approved definition and the current one. */
export function diffDefinitions(approved: ToolDefinition, current: ToolDefinition): DiffLine[] {
  return diffLines(prettyJson(approved).split('\n'), prettyJson(current).split('\n'));
}
