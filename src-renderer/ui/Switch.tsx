import * as RadixSwitch from '@radix-ui/react-switch';
import type { ReactNode } from 'react';
import './labelled-switch.css';

export interface SwitchProps {
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  /** The visible words; with the label around the switch they are its accessible name too. */
  children: ReactNode;
  title?: string;
  className?: string;
  'aria-describedby'?: string;
}

/**
 * An on/off setting that takes effect at once (Radix Switch, role `switch`), named by the words beside
 * it. Yes/no answers inside a form that is saved later stay checkboxes.
 */
export function Switch({ checked, onChange, disabled, children, title, className, ...aria }: SwitchProps) {
  return (
    <label className={`labelled-switch-row${className ? ` ${className}` : ''}`} title={title}>
      <RadixSwitch.Root
        className="labelled-switch"
        checked={checked}
        onCheckedChange={onChange}
        disabled={disabled}
        aria-describedby={aria['aria-describedby']}
      >
        <RadixSwitch.Thumb className="labelled-switch-thumb" />
      </RadixSwitch.Root>
      <span>{children}</span>
    </label>
  );
}
