import { describe, expect, it } from 'vitest';
import { describeIssues, validateArgs, withoutNullOptionals } from './args-validator';

describe('validateArgs', () => {
  it('follows the dialect of $schema and addresses each issue to its field', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        a: { type: 'number' },
        mode: { enum: ['fast', 'safe'] },
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
      },
      required: ['a'],
    };
    expect(validateArgs(draft07, { a: 1, mode: 'fast', items: [{ n: 1 }] })).toEqual([]);
    const issues = validateArgs(draft07, { mode: 'slow', items: [{ n: 1.5 }, {}] });
    expect(issues).toEqual([
      { path: ['a'], message: 'Required' },
      { path: ['mode'], message: 'Must be one of: "fast", "safe"' },
      { path: ['items', 0, 'n'], message: 'Must be integer' },
      { path: ['items', 1, 'n'], message: 'Required' },
    ]);
    expect(describeIssues(issues.slice(0, 1))).toBe('a: Required');
  });

  it('understands 2020-12 keywords (the MCP default) and tolerates what it cannot compile', () => {
    const schema = {
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      additionalProperties: false,
    };
    expect(validateArgs(schema, { pair: ['x', 1] })).toEqual([]);
    expect(validateArgs(schema, { pair: [1, 'x'], extra: true }).map((i) => i.path)).toEqual([['extra'], ['pair', 0], ['pair', 1]]);
    expect(validateArgs({ type: 'object', properties: { x: { $ref: '#/nowhere' } } }, { x: 1 })).toEqual([]);
    expect(validateArgs(undefined, { anything: true })).toEqual([]);
  });
});

describe('withoutNullOptionals', () => {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      note: { type: ['string', 'null'] },
      any: {},
    },
    required: ['region'],
  };

  it('drops a null the model sent for an optional property that does not take null (it means "not given")', () => {
    const args = withoutNullOptionals(schema, { region: 'eu', verbose: null, note: null, any: null });
    expect(args).toEqual({ region: 'eu', note: null, any: null });
    expect(validateArgs(schema, args)).toEqual([]);
  });

  it('leaves a null for a required property to validation, and returns the same object when nothing is dropped', () => {
    const args = { region: null, verbose: true };
    expect(withoutNullOptionals(schema, args)).toBe(args);
    expect(describeIssues(validateArgs(schema, args))).toBe('region: Must be string');
  });
});
