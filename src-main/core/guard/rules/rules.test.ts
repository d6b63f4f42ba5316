import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { parseRules } from './rule-parser';
import { RuleSet } from './rule-set';
import { ruleWarnings } from './rule-warnings';
import { ruleWords } from './rule-words';

const root = path.resolve(os.tmpdir(), 'shared');
const decide = (text: string, call: { serverName?: string; tool: string; args: Record<string, unknown> }, folders = [root]) => {
  const { rules, errors } = parseRules(text);
  expect(errors).toEqual([]);
  return new RuleSet(rules).decide({ serverName: call.serverName ?? 'files', ...call }, folders);
};

describe('the rule language', () => {
  it('reads each kind of condition and says it in words', () => {
    const { rules, errors } = parseRules(
      [
        '# keep files in',
        'deny tool read_file if path outside shared folders  # the first',
        'ask server fetch when url host not in [docs.python.org, "*.github.com"]',
        'DENY any tool if limit > 100 and query matches /pass(word)?/i',
        'allow tool "write file" on "My files" if path is inside shared folders',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
    expect(rules.map((rule) => [rule.line, rule.text])).toEqual([
      [2, 'deny tool read_file if path outside shared folders'],
      [3, 'ask server fetch when url host not in [docs.python.org, "*.github.com"]'],
      [4, 'DENY any tool if limit > 100 and query matches /pass(word)?/i'],
      [5, 'allow tool "write file" on "My files" if path is inside shared folders'],
    ]);
    expect(rules.map(ruleWords)).toEqual([
      "When `read_file`'s `path` is outside the shared folders → Deny",
      "When a tool of `fetch`'s `url` has a host not in docs.python.org, *.github.com → Ask",
      "When any tool's `limit` is over 100 and its `query` matches /pass(word)?/i → Deny",
      "When `write file` (on `My files`)'s `path` is inside the shared folders → Allow",
    ]);
  });

  it('names the line and column of what does not parse', () => {
    const { rules, errors } = parseRules(
      'deny tool read_file\nallow tool x if path outside folders\nask tool y if n > many\nfrobnicate\ndeny tool z if q matches /(/',
    );
    expect(rules).toHaveLength(1);
    expect(errors).toEqual([
      { line: 2, column: 30, message: 'Expected "shared", found "folders"' },
      { line: 3, column: 19, message: 'Expected a number, found "many"' },
      { line: 4, column: 1, message: 'Expected a decision: allow, ask or deny, found "frobnicate"' },
      { line: 5, column: 26, message: expect.stringMatching(/^This pattern is not valid/) },
    ]);
    expect(parseRules('deny tool').errors).toEqual([{ line: 1, column: 10, message: 'Expected a tool name at the end of the rule' }]);
    expect(parseRules('deny tool "x').errors[0]).toMatchObject({ line: 1, column: 11 });
  });
});

describe('decisions', () => {
  const inside = path.join(root, 'notes.txt');
  const outside = path.resolve(os.tmpdir(), 'elsewhere', 'secret.txt');

  it('judges paths against the shared folders, dots and file URLs included', () => {
    const rule = 'deny tool read_file if path outside shared folders';
    expect(decide(rule, { tool: 'read_file', args: { path: inside } })).toBeUndefined();
    expect(decide(rule, { tool: 'read_file', args: { path: outside } })?.decision).toBe('deny');
    expect(decide(rule, { tool: 'read_file', args: { path: path.join(root, '..', 'x') } })?.decision).toBe('deny');
    expect(decide(rule, { tool: 'read_file', args: { path: `file://${outside}` } })?.decision).toBe('deny');
    expect(decide(rule, { tool: 'read_file', args: { path: 'notes.txt' } })).toBeUndefined();
    expect(decide(rule, { tool: 'read_file', args: { path: 'notes.txt' } }, [])?.decision).toBe('deny');
    // Any value of a list outside: the rule applies.
    expect(
      decide('deny any if paths outside shared folders', { tool: 'read_multiple_files', args: { paths: [inside, outside] } })?.decision,
    ).toBe('deny');
    // A call without the argument is not covered.
    expect(decide(rule, { tool: 'read_file', args: {} })).toBeUndefined();
    expect(decide(rule, { tool: 'write_file', args: { path: outside } })).toBeUndefined();
  });

  it('judges hosts, numbers and patterns', () => {
    const hosts = 'deny any if url host not in [example.com, "*.github.com"]';
    expect(decide(hosts, { tool: 'fetch', args: { url: 'https://api.github.com/x' } })).toBeUndefined();
    expect(decide(hosts, { tool: 'fetch', args: { url: 'https://example.com:8443/' } })).toBeUndefined();
    expect(decide(hosts, { tool: 'fetch', args: { url: 'https://evil.example/?q=1' } })?.decision).toBe('deny');
    expect(decide(hosts, { tool: 'fetch', args: { url: 'not a url at all' } })?.decision).toBe('deny');
    expect(decide('ask any if count > 10', { tool: 't', args: { count: 11 } })?.decision).toBe('ask');
    expect(decide('ask any if count > 10', { tool: 't', args: { count: 10 } })).toBeUndefined();
    expect(decide('deny any if q matches /drop\\s+table/i', { tool: 't', args: { q: 'DROP  TABLE x' } })?.decision).toBe('deny');
    expect(decide('deny any if q not matches /^[a-z]+$/', { tool: 't', args: { q: 'abc' } })).toBeUndefined();
  });

  it('lets Deny win over Ask over Allow, and the organisation over the user among equals', () => {
    const user = parseRules('allow any\nask tool t\ndeny server files if n > 1').rules;
    const org = parseRules('ask tool t', 'organisation').rules;
    const set = new RuleSet([...org, ...user]);
    expect(set.decide({ serverName: 'files', tool: 't', args: { n: 2 } }, [])?.line).toBe(3);
    expect(set.decide({ serverName: 'files', tool: 't', args: {} }, [])?.source).toBe('organisation');
    expect(set.decide({ serverName: 'files', tool: 'u', args: {} }, [])?.decision).toBe('allow');
    expect(set.decide({ serverName: 'other', tool: 'u', args: {} }, [])?.decision).toBe('allow');
    expect(new RuleSet(parseRules('deny tool t on other').rules).decide({ serverName: 'files', tool: 't', args: {} }, [])).toBeUndefined();
  });
});

describe('warnings', () => {
  it('names a tool or argument that no server has', () => {
    const { rules } = parseRules(
      'deny tool read_fle if path outside shared folders\ndeny tool read_file if pth outside shared folders\ndeny server nope\ndeny tool read_file if path > 1',
    );
    const servers = [
      { name: 'files', tools: [{ name: 'read_file', inputSchema: { type: 'object' as const, properties: { path: { type: 'string' } } } }] },
    ];
    expect(ruleWarnings(rules, servers)).toEqual([
      { line: 1, message: 'No server has a tool "read_fle".' },
      { line: 2, message: 'The tool "read_file" has no argument "pth".' },
      { line: 3, message: 'No server is named "nope".' },
    ]);
  });
});
