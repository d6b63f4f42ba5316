/**
 * Maps a server's model preferences onto the models we can use, and says why (the dialog shows it).
 * Hints are tried in order as substrings of a model's id or name (the spec: the client may map them);
 * without a matching hint the highest of the cost/speed/intelligence priorities picks a model tier.
 */
export interface ModelOption {
  id: string;
  displayName: string;
}

export interface ModelPreferencesLike {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** The preselected model and a sentence saying why. */
export function chooseModel(
  models: readonly ModelOption[],
  prefs: ModelPreferencesLike | undefined,
  defaultModel: string,
): { model: string; reason: string } {
  const fallback = models.find((m) => m.id === defaultModel)?.id ?? models[0]?.id ?? defaultModel;
  for (const hint of prefs?.hints ?? []) {
    const name = hint.name?.trim().toLowerCase();
    if (!name) continue;
    const match = models.find((m) => m.id.toLowerCase().includes(name) || m.displayName.toLowerCase().includes(name));
    if (match) return { model: match.id, reason: `Matches the server's model hint "${hint.name}".` };
  }
  const cost = prefs?.costPriority ?? 0;
  const speed = prefs?.speedPriority ?? 0;
  const intelligence = prefs?.intelligencePriority ?? 0;
  const top = Math.max(cost, speed, intelligence);
  if (top > 0) {
    const tier = intelligence === top ? 'opus' : 'haiku';
    const match = models.find((m) => m.id.toLowerCase().includes(tier));
    const what = intelligence === top ? `intelligence (${intelligence})` : cost >= speed ? `low cost (${cost})` : `speed (${speed})`;
    if (match) return { model: match.id, reason: `The server ranks ${what} highest.` };
  }
  const hinted = (prefs?.hints ?? []).length > 0 ? "No available model matches the server's hints; " : '';
  return { model: fallback, reason: `${hinted}your default model.`.replace(/^y/, 'Y') };
}
