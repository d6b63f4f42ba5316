import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '@contract';
import { HostCallError } from '@contract';
import { SchemaForm } from './SchemaForm';
import { choose } from '../../../test-support/choose';

afterEach(cleanup);

const schema: JsonObject = {
  type: 'object',
  properties: {
    query: { type: 'string', title: 'Search text', description: 'What to look for' },
    limit: { type: 'integer', default: 10 },
    ratio: { type: 'number' },
    exact: { type: 'boolean', default: true },
    mode: { enum: ['fast', 'thorough'], default: 'fast' },
    tags: { type: 'array', items: { type: 'string' } },
    filter: { type: 'object', title: 'Filter', properties: { owner: { type: 'string' }, since: { type: 'integer' } }, required: ['owner'] },
    shape: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  },
  required: ['query', 'filter'],
};

function setup(s: JsonObject = schema, onRun = vi.fn(async (_args: JsonObject) => undefined)) {
  render(<SchemaForm schema={s} label="Run search" onRun={onRun} />);
  const run = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Run' })));
  return { onRun, run };
}

describe('SchemaForm', () => {
  it('draws each kind, labelled by title else name, with defaults, and builds the arguments', async () => {
    const { onRun, run } = setup();
    expect((screen.getByLabelText('limit') as HTMLInputElement).value).toBe('10');
    expect((screen.getByLabelText('exact') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByLabelText('mode').textContent).toBe('fast');
    expect(screen.getByLabelText('Search text')).toHaveProperty('required', false); // our own checks, not the browser's
    expect(screen.getByLabelText('Search text').getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('What to look for')).toBeTruthy();
    expect(screen.getByLabelText('shape').tagName).toBe('TEXTAREA');
    expect(screen.getByText(/as JSON \(this field uses "oneOf"\)/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search text'), { target: { value: 'mcp' } });
    fireEvent.change(screen.getByLabelText('ratio'), { target: { value: '0.5' } });
    await choose(screen.getByLabelText('mode'), 'thorough');
    const tags = within(screen.getByRole('group', { name: 'tags' }));
    fireEvent.click(tags.getByRole('button', { name: 'Add tags' }));
    fireEvent.click(tags.getByRole('button', { name: 'Add tags' }));
    fireEvent.change(screen.getByLabelText('tags 1'), { target: { value: 'a' } });
    fireEvent.change(screen.getByLabelText('tags 2'), { target: { value: 'b' } });
    fireEvent.click(tags.getByRole('button', { name: 'Remove tags 1' }));
    const filter = within(screen.getByRole('group', { name: 'Filter' }));
    fireEvent.change(filter.getByLabelText('owner'), { target: { value: 'ana' } });
    fireEvent.change(screen.getByLabelText('shape'), { target: { value: '42' } });
    await run();
    expect(onRun).toHaveBeenCalledWith({
      query: 'mcp',
      limit: 10,
      ratio: 0.5,
      exact: true,
      mode: 'thorough',
      tags: ['b'],
      filter: { owner: 'ana' },
      shape: 42,
    });
  });

  it('checks required fields, numbers and JSON next to each field, and clears a complaint on edit', async () => {
    const { onRun, run } = setup();
    fireEvent.change(screen.getByLabelText('limit'), { target: { value: '2.5' } });
    fireEvent.change(screen.getByLabelText('shape'), { target: { value: '{oops' } });
    await run();
    expect(onRun).not.toHaveBeenCalled();
    const query = screen.getByLabelText('Search text');
    expect(query.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Required', { selector: `#${query.getAttribute('aria-describedby')}` })).toBeTruthy();
    expect(screen.getByText('Enter a whole number')).toBeTruthy();
    expect(screen.getByText(/^Not valid JSON/)).toBeTruthy();
    expect(
      within(screen.getByRole('group', { name: 'Filter' }))
        .getByLabelText('owner')
        .getAttribute('aria-invalid'),
    ).toBe('true');
    fireEvent.change(query, { target: { value: 'x' } });
    expect(query.getAttribute('aria-invalid')).toBeNull();
  });

  it("shows the host's (ajv's) complaints next to the fields they name", async () => {
    const onRun = vi.fn(async () => {
      throw new HostCallError('invalid_input', 'Invalid arguments', [
        { path: ['args', 'a'], message: 'Must be number' },
        { path: ['args', 'b'], message: 'Must be >= 0' },
      ]);
    });
    const { run } = setup({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, onRun);
    fireEvent.change(screen.getByLabelText('a'), { target: { value: '1' } });
    await run();
    expect(screen.getByLabelText('a').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Must be number')).toBeTruthy();
    expect(screen.getByText('Must be >= 0')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('falls back to one JSON editor when the whole schema is beyond the form, and says when there is nothing to fill', async () => {
    const { onRun, run } = setup({ anyOf: [{ type: 'object' }] });
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"x": [1]}' } });
    await run();
    expect(onRun).toHaveBeenCalledWith({ x: [1] });
    cleanup();
    const empty = setup({ type: 'object', properties: {} });
    expect(screen.getByText('This tool takes no arguments.')).toBeTruthy();
    await empty.run();
    expect(empty.onRun).toHaveBeenCalledWith({});
  });
});
