import { describe, expect, it } from 'vitest';
import { validateElicitation } from './elicitation-validate';

const schema = {
  properties: {
    name: { type: 'string', minLength: 2, title: 'Full name' },
    email: { type: 'string', format: 'email' },
    born: { type: 'string', format: 'date' },
    n: { type: 'integer', minimum: 1, maximum: 10 },
    ok: { type: 'boolean' },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'a' }, { const: 'b' }, { const: 'c' }] } },
  },
  required: ['name'],
};

describe('elicitation answers against the flat schema subset', () => {
  it('accepts a valid answer and leaves optional fields out', () => {
    expect(
      validateElicitation(schema, { name: 'Ada', email: 'a@b.co', born: '1815-12-10', n: 3, ok: false, hero: 'h1', tags: ['a', 'b'] }),
    ).toEqual([]);
    expect(validateElicitation(schema, { name: 'Ada' })).toEqual([]);
  });
  it('names every problem by field, in words that name the field (its title, else its key)', () => {
    const issues = validateElicitation(schema, {
      email: 'nope',
      born: '10/12/1815',
      n: 2.5,
      ok: 'yes' as unknown as boolean,
      hero: 'h9',
      tags: ['a', 'b', 'z'],
      extra: 'x',
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: ['extra'], message: 'extra is not asked for' },
        { path: ['name'], message: 'Full name is required' },
        { path: ['email'], message: 'email must be an email address' },
        { path: ['born'], message: 'born must be a date (YYYY-MM-DD)' },
        { path: ['n'], message: 'n must be a whole number' },
        { path: ['ok'], message: 'ok must be true or false' },
        { path: ['hero'], message: 'hero must be one of the choices' },
        { path: ['tags'], message: 'tags must only contain the choices' },
      ]),
    );
  });
});
