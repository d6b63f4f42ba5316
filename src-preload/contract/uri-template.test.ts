import { describe, expect, it } from 'vitest';
import { expandUriTemplate, parseUriTemplate } from './uri-template';
import { isAbsoluteUri } from './resources';

describe('URI templates (RFC 6570)', () => {
  it('names the variables of every operator, once each, and marks query-like ones optional', () => {
    expect(parseUriTemplate('file:///{+path}/{name}.{ext}{?q,limit}{&page}{#frag}')).toEqual({
      ok: true,
      variables: [
        { name: 'path', required: true },
        { name: 'name', required: true },
        { name: 'ext', required: true },
        { name: 'q', required: false },
        { name: 'limit', required: false },
        { name: 'page', required: false },
        { name: 'frag', required: false },
      ],
    });
    expect(parseUriTemplate('x://{a}/{a}{/list*}{var:3}')).toEqual({
      ok: true,
      variables: [
        { name: 'a', required: true },
        { name: 'list', required: true },
        { name: 'var', required: true },
      ],
    });
    expect(parseUriTemplate('demo://static')).toEqual({ ok: true, variables: [] });
  });

  it('explains malformed templates instead of guessing', () => {
    const error = (template: string) => {
      const parsed = parseUriTemplate(template);
      return parsed.ok ? 'accepted' : parsed.error;
    };
    expect(error('lab://bad/{unclosed')).toBe('The expression opened at position 11 is never closed.');
    expect(error('lab://{a{b}}')).toBe('Expressions cannot be nested (position 9).');
    expect(error('lab://}')).toBe('Unexpected "}" at position 7.');
    expect(error('lab://{}')).toContain('the expression is empty');
    expect(error('lab://{=x}')).toContain('the operator "=" is reserved');
    expect(error('lab://{a-b}')).toContain('"a-b" is not a valid variable name');
    expect(error('lab://{a:0}')).toContain('between 1 and 9999');
    expect(error('lab:// {a}')).toContain('is not allowed');
    expect(error('')).toBe('The template is empty.');
  });

  it('expands with the library, encoding values and leaving empty optional ones out', () => {
    expect(expandUriTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '7' })).toBe('demo://resource/dynamic/text/7');
    expect(expandUriTemplate('lab://dept/{department}/{member}', { department: 'R&D', member: 'Ada Lovelace' })).toBe(
      'lab://dept/R%26D/Ada%20Lovelace',
    );
    expect(expandUriTemplate('lab://search{?q,limit}', { q: 'apples', limit: '' })).toBe('lab://search?q=apples');
    expect(expandUriTemplate('file:///{+path}', { path: 'a/b c' })).toBe('file:///a/b%20c');
  });

  it('tells absolute URIs from text', () => {
    expect(['file:///a.txt', 'demo://resource/1', 'urn:isbn:123', 'git://x/y?z#w'].every(isAbsoluteUri)).toBe(true);
    expect(['', 'no scheme', '/abs/path', 'file:///a b', '1abc:x', 'a\u0000b:'].some(isAbsoluteUri)).toBe(false);
  });
});
