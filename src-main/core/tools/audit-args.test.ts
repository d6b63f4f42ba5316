import { afterEach, describe, expect, it, vi } from 'vitest';
import { PATTERNS_ONLY, redactValue } from '../audit/redact';
import { argsDigest } from '../tool-definition/definition';
import { withoutNullOptionals } from '../tool-definition/args-validator';
import { visibleTo } from '../tool-definition/tool-ui';
import { auditArgs } from './audit-args';

/** What the row held before the one-walk path: the reference both paths must give. */
const twoCopies = (args: Record<string, unknown>) => ({
  argsDigest: argsDigest(args),
  argsJson: JSON.stringify(redactValue(args, PATTERNS_ONLY)),
});

afterEach(() => vi.restoreAllMocks());

describe('auditArgs', () => {
  it('serialises ordinary arguments once for both the digest and the row (no sorted or redacted copy)', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const keys = vi.spyOn(Object, 'keys');
    const args = { a: 1, message: 'hi', nested: { list: [1, 'two', null, true], z: { deep: 'x' } } };
    const row = auditArgs(args, PATTERNS_ONLY);
    expect(stringify).toHaveBeenCalledTimes(1);
    // canonicalize's and redactValue's walks both list keys: neither ran.
    expect(keys).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(row).toEqual(twoCopies(args));
  });

  it.each([
    ['keys out of order', { message: 'hi', a: 1 }],
    ['nested keys out of order', { a: { z: 1, b: 2 } }],
    ['integer-like keys', { '10': 'a', '9': 'b' }],
    ['a secret-looking key', { password: 'hunter2', user: 'me' }],
    ['a token-shaped value', { text: 'key ghp_abcdefghijklmnopqrstuvwxyz0123456789' }],
    ['an undefined member', { a: undefined, b: 1 }],
    ['undefined in an array', { list: [1, undefined] }],
    ['a date', { when: new Date(0) }],
    ['deep nesting', { a: JSON.parse(`${'['.repeat(70)}1${']'.repeat(70)}`) as unknown }],
    ['a secret key below the top', { a: { api_key: 'k' } }],
    ['an own __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as unknown],
  ])('gives the same row as the two-copy path for %s', (_name, args) => {
    expect(auditArgs(args as Record<string, unknown>, PATTERNS_ONLY)).toEqual(twoCopies(args as Record<string, unknown>));
  });
});

describe('per-call checks that make nothing for an ordinary call', () => {
  it('withoutNullOptionals hands back the same arguments without listing their entries when none is null', () => {
    const entries = vi.spyOn(Object, 'entries');
    const args = { message: 'hi' };
    expect(withoutNullOptionals({ type: 'object', properties: { message: { type: 'string' } } }, args)).toBe(args);
    expect(entries).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(withoutNullOptionals({ type: 'object', properties: { n: { type: 'number' } } }, { n: null })).toEqual({});
  });

  it('visibleTo answers a tool without `_meta.ui` without building its audience list', () => {
    const filter = vi.spyOn(Array.prototype, 'filter');
    expect(visibleTo({}, 'model')).toBe(true);
    expect(visibleTo({ _meta: { other: 1 } }, 'app')).toBe(true);
    expect(filter).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(visibleTo({ _meta: { ui: { visibility: ['app'] } } }, 'model')).toBe(false);
  });
});
