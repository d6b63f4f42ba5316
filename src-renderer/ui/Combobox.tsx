import { useId, useState, type KeyboardEvent } from 'react';
import type { FieldControlProps } from './Field';

export interface ComboboxProps extends FieldControlProps {
  value: string;
  onChange(value: string): void;
  /** Suggestions for the current value (best first); the list shows while there are some and it is open. */
  options: readonly string[];
  /** Suggestions are being fetched (announced, never blocking the typing). */
  busy?: boolean;
  required?: boolean;
  placeholder?: string;
  /** Extra words for screen readers when suggestions exist ("3 suggestions"), default on. */
  announce?: boolean;
}

/**
 * A text field with a list of suggestions: the ARIA 1.2 combobox pattern (editable, list
 * autocomplete). The input is `role=combobox` with `aria-expanded`, `aria-controls` (the listbox) and
 * `aria-activedescendant` (the highlighted option); Down/Up move through the options (Down opens the
 * list), Enter takes the highlighted one, Escape closes the list (a second Escape is the dialog's),
 * and clicking an option takes it. Focus stays in the input throughout.
 */
export function Combobox({ value, onChange, options, busy = false, required, placeholder, announce = true, ...control }: ComboboxProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = open && options.length > 0;
  const activeIndex = shown && active < options.length ? active : -1;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const choose = (option: string) => {
    onChange(option);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        setActive((i) => (options.length === 0 ? -1 : Math.min(i + 1, options.length - 1)));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        setActive((i) => (options.length === 0 ? -1 : i <= 0 ? options.length - 1 : i - 1));
        break;
      case 'Enter':
        if (activeIndex >= 0) {
          event.preventDefault();
          choose(options[activeIndex]);
        }
        break;
      case 'Escape':
        if (shown) {
          // Closes the list only; an Escape with the list closed reaches the dialog around it.
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
          setActive(-1);
        }
        break;
    }
  };

  return (
    <div className="combobox">
      <input
        {...control}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        aria-required={required || undefined}
        aria-busy={busy || undefined}
        autoComplete="off"
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" className="combobox-list" hidden={!shown}>
        {shown &&
          options.map((option, i) => (
            <li
              key={`${i}:${option}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === activeIndex}
              className={i === activeIndex ? 'active' : undefined}
              // Keep focus in the input: the choice happens on click.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(option)}
            >
              {option}
            </li>
          ))}
      </ul>
      {announce && (
        <span className="visually-hidden" aria-live="polite">
          {shown ? `${options.length} suggestion${options.length === 1 ? '' : 's'}` : ''}
        </span>
      )}
    </div>
  );
}
