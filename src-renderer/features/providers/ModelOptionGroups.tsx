import type { ModelOptionGroup } from './model-options';

/** The `<optgroup>`s of a provider › model `<select>`: one per provider, each option named by its model. */
export function ModelOptionGroups({ groups }: { groups: readonly ModelOptionGroup[] }) {
  return groups.map((group) => (
    <optgroup key={group.providerId} label={group.label}>
      {group.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </optgroup>
  ));
}
