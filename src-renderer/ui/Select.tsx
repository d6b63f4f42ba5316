import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import './select.css';

export interface SelectOption {
  value: string;
  /** What the option (and the closed control, once chosen) shows; also the option's accessible name. */
  label: string;
  disabled?: boolean;
}

export interface SelectGroup {
  label: string;
  options: readonly SelectOption[];
}

export interface SelectProps {
  /** Ties a `<label htmlFor>` (or a `Field`) to the control. */
  id?: string;
  value: string;
  onChange(value: string): void;
  /** The choices; or `groups` for headed groups (a provider's models). */
  options?: readonly SelectOption[];
  groups?: readonly SelectGroup[];
  disabled?: boolean;
  required?: boolean;
  /** Shown while the value matches no option. */
  placeholder?: ReactNode;
  title?: string;
  className?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/*
 * Radix refuses '' as an item's value (it means "nothing chosen"), yet '' is a real choice in many of
 * our lists ("All levels", "All offered tools"). It travels under a token of its own.
 */
const EMPTY = '\u0000empty';
const encode = (value: string) => (value === '' ? EMPTY : value);
const decode = (value: string) => (value === EMPTY ? '' : value);

/**
 * A themed drop-down list (Radix Select): a button with role `combobox` named by its label, whose list
 * is a `listbox` of `option`s named by their labels. One of these stands for every `<select>` in the app.
 */
export function Select({ id, value, onChange, options, groups, disabled, required, placeholder, title, className, ...aria }: SelectProps) {
  const all = [...(options ?? []), ...(groups ?? []).flatMap((g) => g.options)];
  const known = all.some((o) => o.value === value);
  return (
    <RadixSelect.Root
      value={known ? encode(value) : ''}
      onValueChange={(next) => onChange(decode(next))}
      disabled={disabled}
      required={required}
    >
      <RadixSelect.Trigger
        id={id}
        className={`select-trigger${className ? ` ${className}` : ''}`}
        title={title}
        aria-label={aria['aria-label']}
        aria-describedby={aria['aria-describedby']}
        aria-invalid={aria['aria-invalid'] || undefined}
      >
        <span className="select-value">
          <RadixSelect.Value placeholder={placeholder ?? (value === '' ? '—' : value)} />
        </span>
        <RadixSelect.Icon className="select-icon">
          <ChevronDown size={16} aria-hidden="true" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content className="select-content" position="popper" sideOffset={4}>
          <RadixSelect.Viewport className="select-viewport">
            {options?.map((o) => (
              <Item key={o.value} option={o} />
            ))}
            {groups?.map((g, i) => (
              <RadixSelect.Group key={`${i}-${g.label}`} className="select-group">
                <RadixSelect.Label className="select-group-label">{g.label}</RadixSelect.Label>
                {g.options.map((o) => (
                  <Item key={o.value} option={o} />
                ))}
              </RadixSelect.Group>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}

function Item({ option }: { option: SelectOption }) {
  return (
    <RadixSelect.Item className="select-item" value={encode(option.value)} disabled={option.disabled}>
      <RadixSelect.ItemIndicator className="select-item-indicator">
        <Check size={14} aria-hidden="true" />
      </RadixSelect.ItemIndicator>
      <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
    </RadixSelect.Item>
  );
}
