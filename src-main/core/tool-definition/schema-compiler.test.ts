import { describe, expect, it } from 'vitest';
import { compiledSchema, LazySchemaValidator } from './schema-compiler';

describe('the schema compiler (issue #15: validators compiled lazily, one per schema object)', () => {
  it('compiles a schema once, on first use, and reuses it for that schema object', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const first = compiledSchema(schema, 'args');
    expect(first).toBeTypeOf('function');
    expect(compiledSchema(schema, 'args')).toBe(first);
    // An equal but new object (a refreshed catalog) gets its own: the old one goes with its catalog.
    expect(compiledSchema({ ...schema }, 'args')).not.toBe(first);
  });

  it('lets tools of different servers use the same $id, and checks formats only for structured results', () => {
    const a = { $id: 'urn:example:shared', type: 'object', properties: { at: { type: 'string', format: 'date-time' } } };
    const b = { $id: 'urn:example:shared', type: 'object', properties: { at: { type: 'number' } } };
    expect(compiledSchema(a, 'args')!({ at: 'yesterday' })).toBe(true);
    expect(compiledSchema(b, 'args')!({ at: 1 })).toBe(true);
    const output = new LazySchemaValidator().getValidator(a);
    expect(output({ at: '2026-01-01T00:00:00Z' })).toEqual({ valid: true, data: { at: '2026-01-01T00:00:00Z' }, errorMessage: undefined });
    expect(output({ at: 'yesterday' })).toMatchObject({ valid: false, errorMessage: 'data/at must match format "date-time"' });
  });

  it('reports a schema that cannot be compiled when the SDK asks for it (the tool’s outputSchema is invalid)', () => {
    const broken = { type: 'object', properties: { s: { type: 'string', pattern: '(' } } };
    expect(compiledSchema(broken, 'args')).toBeNull();
    expect(() => new LazySchemaValidator().getValidator(broken)).toThrow('ajv could not compile it');
  });
});
