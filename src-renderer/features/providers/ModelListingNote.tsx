import type { ProviderView } from '@contract';
import { modelListing } from './model-listing';

export interface ModelListingNoteProps {
  provider: ProviderView | undefined;
  model: string;
  /** Picks a listed model instead. */
  onPick(model: string): void;
}

/**
 * Under a default model: a warning naming it when its provider's list does not have it, with the
 * closest listed model one click away (every listed one follows as a choice); when the list could not
 * be fetched, says so instead of warning.
 */
export function ModelListingNote({ provider, model, onPick }: ModelListingNoteProps) {
  const listing = modelListing(provider, model);
  if (!provider || listing.kind === 'listed') return null;
  if (listing.kind === 'unchecked')
    return (
      <p className="hint">
        Could not check “{model}” against {provider.name}’s models: {listing.why}
      </p>
    );
  return (
    <div role="note" aria-label="Model not listed" className="warning">
      <p>
        {provider.name} does not list “{model}”: requests with it may be refused. Pick one of its models below
        {listing.closest ? ', or the closest:' : '.'}
      </p>
      {listing.closest && (
        <button type="button" className="button" onClick={() => onPick(listing.closest!)}>
          Use {listing.closest}
        </button>
      )}
    </div>
  );
}
