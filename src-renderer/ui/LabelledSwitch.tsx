import * as RadixSwitch from '@radix-ui/react-switch';
import './labelled-switch.css';

export interface LabelledSwitchProps {
  /** The accessible name (and the tooltip): what turning it on does. */
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  /** Visible words beside it; absent: the switch alone (its name still reaches assistive tech). */
  children?: React.ReactNode;
}

/** An on/off switch (Radix Switch, role `switch`) named by `label`. */
export function LabelledSwitch({ label, checked, onChange, disabled, children }: LabelledSwitchProps) {
  const control = (
    <RadixSwitch.Root
      className="labelled-switch"
      aria-label={label}
      title={label}
      checked={checked}
      onCheckedChange={onChange}
      disabled={disabled}
    >
      <RadixSwitch.Thumb className="labelled-switch-thumb" />
    </RadixSwitch.Root>
  );
  if (!children) return control;
  return (
    <span className="labelled-switch-row">
      {control}
      <span aria-hidden="true">{children}</span>
    </span>
  );
}
