import type { ProviderView } from '@contract';

/**
 * Whether a provider lists a model: `unlisted` only when its list came from its endpoint (a request
 * with that model would likely be refused); `unchecked` when the list could not be fetched (its note
 * says why), so nothing is claimed about the model.
 */
export type ModelListing = { kind: 'listed' } | { kind: 'unlisted'; closest: string | undefined } | { kind: 'unchecked'; why: string };

export function modelListing(provider: ProviderView | undefined, model: string): ModelListing {
  if (!provider || model === '') return { kind: 'listed' };
  if (provider.modelsNote) return { kind: 'unchecked', why: provider.modelsNote };
  // Never asked yet (it is asked at start and when the endpoint changes): nothing to check against.
  if (!provider.modelsFetchedAt || provider.models.length === 0) return { kind: 'listed' };
  if (provider.models.some((m) => m.id === model)) return { kind: 'listed' };
  return {
    kind: 'unlisted',
    closest: closestId(
      provider.models.map((m) => m.id),
      model,
    ),
  };
}

/** The listed id sharing the longest start with the model (a newer version of it, usually); none if nothing is shared. */
function closestId(ids: readonly string[], model: string): string | undefined {
  let best: string | undefined;
  let bestLength = 0;
  for (const id of ids) {
    let n = 0;
    while (n < id.length && n < model.length && id[n] === model[n]) n++;
    if (n > bestLength) [best, bestLength] = [id, n];
  }
  return best;
}
