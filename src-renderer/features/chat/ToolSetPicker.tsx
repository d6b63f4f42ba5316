import { useId } from 'react';
import { describeUnavailable, type ToolSetView } from '@contract';
import './tool-picker.css';
import { Select } from '../../ui/Select';

export interface ToolSetPickerProps {
  sets: readonly ToolSetView[];
  /** The conversation's set; undefined: every offered tool. */
  value: string | undefined;
  onChange(toolSetId: string | null): void;
  disabled?: boolean;
}

/** The chat header's `Tool set` combobox, and what of the chosen set is gone. */
export function ToolSetPicker({ sets, value, onChange, disabled }: ToolSetPickerProps) {
  const id = useId();
  const chosen = sets.find((s) => s.id === value);
  return (
    <div className="tool-set-picker">
      <label htmlFor={id}>Tool set</label>
      <Select
        id={id}
        value={chosen?.id ?? ''}
        disabled={disabled}
        onChange={(next) => onChange(next || null)}
        options={[{ value: '', label: 'All offered tools' }, ...sets.map((set) => ({ value: set.id, label: set.name }))]}
      />
      {chosen && chosen.unavailable.length > 0 && (
        <p className="warning tool-set-gone" role="status">
          {chosen.name}: {describeUnavailable(chosen.unavailable)}
        </p>
      )}
    </div>
  );
}
