import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Combobox } from './Combobox';
import { Field } from './Field';

afterEach(cleanup);

function Harness({ options }: { options: string[] }) {
  const [value, setValue] = useState('');
  return (
    <Field label="department">
      {(control) => <Combobox {...control} value={value} onChange={setValue} options={options.filter((o) => o.startsWith(value))} />}
    </Field>
  );
}

describe('Combobox (ARIA 1.2 combobox with a listbox)', () => {
  it('is named by its label, controls its listbox, and moves the active option with the arrow keys', () => {
    render(<Harness options={['Engineering', 'Sales', 'Support']} />);
    const input = screen.getByRole('combobox', { name: 'department' });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    fireEvent.focus(input);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    const listbox = screen.getByRole('listbox');
    expect(input.getAttribute('aria-controls')).toBe(listbox.id);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const active = document.getElementById(input.getAttribute('aria-activedescendant')!);
    expect(active?.textContent).toBe('Sales');
    expect(active?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((input as HTMLInputElement).value).toBe('Engineering');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('filters as the user types, takes a clicked option, and closes on Escape without clearing', () => {
    render(<Harness options={['Engineering', 'Sales', 'Support']} />);
    const input = screen.getByRole('combobox', { name: 'department' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'S' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Sales', 'Support']);
    fireEvent.click(screen.getByRole('option', { name: 'Support' }));
    expect(input.value).toBe('Support');
    fireEvent.change(input, { target: { value: 'S' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.value).toBe('S');
  });
});
