/**
 * Maps a server's model preferences onto every configured provider's models, and says why (the
 * sampling dialog shows it; the user may pick another).
 *
 * - Hints are tried in order, each as a case-insensitive substring of a model's id or name (the
 *   spec lets the client map hints); among several matches the default provider's comes first.
 * - Without a matching hint, the cost/speed/intelligence priorities are weighed against a small
 *   capability table. The table is a heuristic, not a benchmark: it knows model families by name
 *   (opus / o1 / gpt-5 … capable, haiku / mini / flash / 8b … fast and cheap, the rest in between)
 *   and counts a model on this computer (a loopback endpoint) as free.
 * - With no preferences, or nothing to weigh, the default model.
 */
import type { SamplingModelOption } from '@contract';
import type { ModelChoice, ProviderModel } from '../llm/llm-types';

export interface ModelPreferencesLike {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** A model to choose from, and whether its provider runs on this computer. */
export type ChoosableModel = ProviderModel;

/** 1 (worst) to 3 (best) on each axis: cost 3 = cheapest. */
interface Capability {
  cost: number;
  speed: number;
  intelligence: number;
}

/** First match wins; a model no row names is middling on every axis. */
const CAPABILITY_TABLE: readonly { family: RegExp; capability: Capability }[] = [
  {
    family:
      /opus|\bo1\b(?!-mini)|\bo3\b(?!-mini)|o1-(pro|preview)|gpt-4\.5|gpt-5(?![.-]?\d*-?(mini|nano))|grok-4|gemini-[\d.]+-pro|deepseek-r1|mistral-large|405b|70b|72b/i,
    capability: { cost: 1, speed: 1, intelligence: 3 },
  },
  {
    family: /haiku|mini|nano|flash|small|tiny|lite|instant|\b[1-9](\.\d)?b\b|gemma|phi/i,
    capability: { cost: 3, speed: 3, intelligence: 1 },
  },
];
const MIDDLING: Capability = { cost: 2, speed: 2, intelligence: 2 };

/** How a model rates (heuristic; see the module comment). */
export function capabilityOf(model: ChoosableModel): Capability {
  const row = CAPABILITY_TABLE.find((r) => r.family.test(model.id) || r.family.test(model.displayName));
  const capability = row?.capability ?? MIDDLING;
  return model.local ? { ...capability, cost: 3 } : capability;
}

const AXES = ['cost', 'speed', 'intelligence'] as const;
const AXIS_WORDS: Record<(typeof AXES)[number], { priority: string; best: string }> = {
  cost: { priority: 'low cost', best: 'among the cheapest available' },
  speed: { priority: 'speed', best: 'among the fastest available' },
  intelligence: { priority: 'intelligence', best: 'among the most capable available' },
};

function clampPriority(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

const same = (a: ModelChoice, m: SamplingModelOption) => a.providerId === m.providerId && a.model === m.id;

/** The preselected model and a sentence saying why. */
export function chooseModel(
  models: readonly ChoosableModel[],
  prefs: ModelPreferencesLike | undefined,
  fallback: ModelChoice,
): ModelChoice & { reason: string } {
  // The default first, then the default provider's models, then the rest in their order.
  const ordered = [...models].sort(
    (a, b) =>
      Number(same(fallback, b)) - Number(same(fallback, a)) ||
      Number(b.providerId === fallback.providerId) - Number(a.providerId === fallback.providerId),
  );
  for (const hint of prefs?.hints ?? []) {
    const name = hint.name?.trim().toLowerCase();
    if (!name) continue;
    const match = ordered.find((m) => m.id.toLowerCase().includes(name) || m.displayName.toLowerCase().includes(name));
    if (match) return { providerId: match.providerId, model: match.id, reason: `Matches the server's model hint "${hint.name}".` };
  }
  const weights = {
    cost: clampPriority(prefs?.costPriority),
    speed: clampPriority(prefs?.speedPriority),
    intelligence: clampPriority(prefs?.intelligencePriority),
  };
  const top = Math.max(weights.cost, weights.speed, weights.intelligence);
  if (top > 0 && ordered.length > 0) {
    const score = (m: ChoosableModel) => {
      const c = capabilityOf(m);
      return AXES.reduce((sum, axis) => sum + weights[axis] * c[axis], 0);
    };
    // Stable: among equal scores the earlier (the default, its provider's) wins.
    const best = ordered.reduce((winner, m) => (score(m) > score(winner) ? m : winner), ordered[0]);
    const axis = AXES.find((a) => weights[a] === top)!;
    const local = axis === 'cost' && best.local ? ' (it runs on this computer)' : '';
    const words = AXIS_WORDS[axis];
    return {
      providerId: best.providerId,
      model: best.id,
      reason: `The server ranks ${words.priority} highest (${top}); ${best.displayName} is ${words.best}${local}, by Patchbay's rough table of model families.`,
    };
  }
  const hinted =
    (prefs?.hints ?? []).length > 0 ? "No available model matches the server's hints; your default model." : 'Your default model.';
  return { ...fallback, reason: hinted };
}
