import { useId } from 'react';
import type { ProviderView } from '@contract';
import { groupModels, modelValue, parseModelValue, providerModels, type ModelRef } from '../providers/model-options';
import { modelListing } from '../providers/model-listing';
import '../providers/providers.css';
import { Select } from '../../ui/Select';

export interface ModelPickerProps {
  providers: readonly ProviderView[];
  /** The model of the open conversation (or the default when none is open). */
  value: ModelRef;
  onChange(choice: ModelRef): void;
  disabled?: boolean;
}

/**
 * The chat header's `Model` combobox: provider › model, every provider's listed models grouped under
 * its name. Changing it mid-conversation keeps the history; the next turn uses the new model.
 */
export function ModelPicker({ providers, value, onChange, disabled }: ModelPickerProps) {
  const id = useId();
  const provider = providers.find((p) => p.id === value.providerId);
  // A model its provider's list does not have (typed by hand, or retired) says so where it is shown.
  const unlisted = modelListing(provider, value.model).kind === 'unlisted';
  const groups = groupModels(providerModels(providers), [
    { ...value, providerName: provider?.name, ...(unlisted ? { label: `${value.model} (not listed)` } : {}) },
  ]);
  return (
    <div className="model-picker">
      <label htmlFor={id}>Model</label>
      <Select
        id={id}
        value={modelValue(value)}
        disabled={disabled}
        title={provider ? `${provider.name} › ${value.model}${unlisted ? `: ${provider.name} does not list it` : ''}` : value.model}
        onChange={(next) => {
          const choice = parseModelValue(next);
          if (choice) onChange(choice);
        }}
        groups={groups}
      />
    </div>
  );
}
