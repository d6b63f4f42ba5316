import { describe, expect, it } from 'vitest';
import { boundedJson, indentJson } from './bounded-json';

describe('indentJson (protocol details are kept compact, as they crossed the wire)', () => {
  const value = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a, "b" {c} [d]' }], empty: [], none: {} } };
  const pretty = JSON.stringify(value, null, 2);

  it('indents compact and already indented JSON alike', () => {
    expect(indentJson(JSON.stringify(value))).toBe(pretty);
    expect(indentJson(pretty)).toBe(pretty);
  });

  it('indents text cut at a size cap, or redacted into something that no longer parses, token by token', () => {
    const compact = JSON.stringify(value);
    const cut = compact.slice(0, compact.indexOf('[d]') + 2);
    expect(indentJson(cut)).toBe(pretty.slice(0, pretty.indexOf('[d]') + 2));
    expect(indentJson('{"token":[REDACTED],"n":1}')).toBe('{\n  "token": [\n    REDACTED\n  ],\n  "n": 1\n}');
  });

  it('serializes with a budget without walking what it does not keep', () => {
    expect(boundedJson({ a: 'x'.repeat(100) }, 20, 0)).toEqual({ text: '{"a":"xxxxxxxxxxxxxx', truncated: true });
  });
});
