/**
 * The rule language: one rule a line, read by a small tokenizer and a recursive-descent parser, so an
 * error names its line and column. `#` starts a comment. The grammar (keywords in any case):
 *
 *   rule   := decision scope [("if" | "when") cond ("and" cond)*]
 *   decision := "allow" | "ask" | "deny"
 *   scope  := "any" ["tool"] | "tool" name ["on" name] | "server" name
 *   cond   := name test                       (the argument; `a.b` reaches into an object)
 *   test   := ["is"] ("inside" | "outside") "shared" "folders"
 *           | "host" ["not"] "in" "[" name ("," name)* "]"  (`*.example.com` covers subdomains)
 *           | (">" | ">=" | "<" | "<=") number
 *           | ["not"] "matches" /regex/flags
 *   name   := word | "quoted string"
 *
 *   deny tool read_file if path outside shared folders
 *   ask server fetch if url host not in [docs.python.org, "*.github.com"]
 *   deny any tool if limit > 100
 */
import type { Rule, RuleCondition, RuleDecision, RuleScope, RuleSyntaxError } from './rule-types';

type Token =
  | { kind: 'word'; text: string; column: number }
  | { kind: 'string'; text: string; column: number }
  | { kind: 'regex'; text: string; flags: string; column: number }
  | { kind: 'punct'; text: string; column: number };

class RuleError extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

const WORD = /[\p{L}\p{N}_.*:@$~+-]/u;

/** Splits one line into tokens; `#` outside a string or pattern ends it. */
function tokenize(line: string): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
    } else if (ch === '#') {
      return { tokens, end: i };
    } else if (ch === '"') {
      const start = i;
      let text = '';
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < line.length) i++;
        text += line[i++];
      }
      if (i >= line.length) throw new RuleError(start + 1, 'This quoted text has no closing "');
      i++;
      tokens.push({ kind: 'string', text, column: start + 1 });
    } else if (ch === '/' && tokens.at(-1)?.kind === 'word' && tokens.at(-1)!.text.toLowerCase() === 'matches') {
      const start = i;
      let text = '';
      i++;
      while (i < line.length && line[i] !== '/') {
        if (line[i] === '\\' && i + 1 < line.length) text += line[i++];
        text += line[i++];
      }
      if (i >= line.length) throw new RuleError(start + 1, 'This pattern has no closing /');
      i++;
      let flags = '';
      while (i < line.length && /[a-z]/.test(line[i])) flags += line[i++];
      tokens.push({ kind: 'regex', text, flags, column: start + 1 });
    } else if (ch === '>' || ch === '<') {
      const text = line[i + 1] === '=' ? `${ch}=` : ch;
      tokens.push({ kind: 'punct', text, column: i + 1 });
      i += text.length;
    } else if (ch === '[' || ch === ']' || ch === ',') {
      tokens.push({ kind: 'punct', text: ch, column: i + 1 });
      i++;
    } else if (WORD.test(ch)) {
      const start = i;
      while (i < line.length && WORD.test(line[i])) i++;
      tokens.push({ kind: 'word', text: line.slice(start, i), column: start + 1 });
    } else {
      throw new RuleError(i + 1, `Unexpected "${ch}"`);
    }
  }
  return { tokens, end: line.length };
}

/** Reads the tokens of one line. */
class LineParser {
  private at = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly endColumn: number,
  ) {}

  rule(): Omit<Rule, 'line' | 'text' | 'source'> {
    const decision = this.oneOf(['allow', 'ask', 'deny'], 'a decision: allow, ask or deny') as RuleDecision;
    const scope = this.scope();
    const conditions: RuleCondition[] = [];
    if (this.peekKeyword('if') || this.peekKeyword('when')) {
      this.at++;
      conditions.push(this.condition());
      while (this.peekKeyword('and')) {
        this.at++;
        conditions.push(this.condition());
      }
    }
    const rest = this.tokens[this.at];
    if (rest) throw new RuleError(rest.column, `Expected "if", "and" or the end of the rule, found "${rest.text}"`);
    return { decision, scope, conditions };
  }

  private scope(): RuleScope {
    const word = this.oneOf(['any', 'tool', 'server'], '"any", "tool" or "server"');
    if (word === 'any') {
      if (this.peekKeyword('tool')) this.at++;
      return { kind: 'all' };
    }
    if (word === 'server') return { kind: 'server', server: this.name('a server name') };
    const tool = this.name('a tool name');
    if (!this.peekKeyword('on')) return { kind: 'tool', tool };
    this.at++;
    return { kind: 'tool', tool, server: this.name('a server name') };
  }

  private condition(): RuleCondition {
    const arg = this.name('an argument name');
    if (this.peekKeyword('is')) this.at++;
    const token = this.next('a test: inside/outside shared folders, host in […], > number, or matches /pattern/');
    const word = token.kind === 'word' ? token.text.toLowerCase() : '';
    if (word === 'inside' || word === 'outside') {
      this.keyword('shared');
      this.keyword('folders');
      return { kind: 'folders', arg, inside: word === 'inside' };
    }
    if (word === 'host') {
      const negated = this.peekKeyword('not');
      if (negated) this.at++;
      this.keyword('in');
      return { kind: 'host', arg, negated, hosts: this.list() };
    }
    if (token.kind === 'punct' && ['>', '>=', '<', '<='].includes(token.text)) {
      const number = this.next('a number');
      const limit = Number(number.text);
      if (number.kind !== 'word' || !Number.isFinite(limit))
        throw new RuleError(number.column, `Expected a number, found "${number.text}"`);
      return { kind: 'compare', arg, op: token.text as '>' | '>=' | '<' | '<=', limit };
    }
    const negated = word === 'not';
    if (negated) this.keyword('matches');
    else if (word !== 'matches')
      throw new RuleError(token.column, `Expected a test (inside, outside, host, >, <, matches), found "${token.text}"`);
    const pattern = this.next('a pattern in slashes, like /^https:/');
    if (pattern.kind !== 'regex')
      throw new RuleError(pattern.column, `Expected a pattern in slashes, like /^https:/, found "${pattern.text}"`);
    try {
      return { kind: 'matches', arg, negated, pattern: new RegExp(pattern.text, pattern.flags.replace(/[gy]/g, '')) };
    } catch (error) {
      throw new RuleError(pattern.column, `This pattern is not valid: ${(error as Error).message}`);
    }
  }

  private list(): string[] {
    const open = this.next('[');
    if (open.text !== '[' || open.kind !== 'punct') throw new RuleError(open.column, `Expected "[", found "${open.text}"`);
    const items = [this.name('a host name').toLowerCase()];
    for (;;) {
      const token = this.next('"," or "]"');
      if (token.kind === 'punct' && token.text === ']') return items;
      if (token.kind !== 'punct' || token.text !== ',') throw new RuleError(token.column, `Expected "," or "]", found "${token.text}"`);
      items.push(this.name('a host name').toLowerCase());
    }
  }

  private name(what: string): string {
    const token = this.next(what);
    if (token.kind === 'word' || token.kind === 'string') return token.text;
    throw new RuleError(token.column, `Expected ${what}, found "${token.text}"`);
  }

  private keyword(word: string): void {
    const token = this.next(`"${word}"`);
    if (token.kind !== 'word' || token.text.toLowerCase() !== word)
      throw new RuleError(token.column, `Expected "${word}", found "${token.text}"`);
  }

  private oneOf(words: string[], what: string): string {
    const token = this.next(what);
    const word = token.kind === 'word' ? token.text.toLowerCase() : '';
    if (!words.includes(word)) throw new RuleError(token.column, `Expected ${what}, found "${token.text}"`);
    return word;
  }

  private peekKeyword(word: string): boolean {
    const token = this.tokens[this.at];
    return token?.kind === 'word' && token.text.toLowerCase() === word;
  }

  private next(what: string): Token {
    const token = this.tokens[this.at++];
    if (!token) throw new RuleError(this.endColumn, `Expected ${what} at the end of the rule`);
    return token;
  }
}

export interface ParsedRules {
  rules: Rule[];
  errors: RuleSyntaxError[];
}

/** Parses a whole text; every line that does not parse is an error (the caller keeps the previous rules then). */
export function parseRules(text: string, source: Rule['source'] = 'user'): ParsedRules {
  const rules: Rule[] = [];
  const errors: RuleSyntaxError[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    try {
      const { tokens, end } = tokenize(raw);
      if (tokens.length === 0) return;
      const text = raw.slice(0, end).trimEnd();
      const parsed = new LineParser(tokens, text.length + 1).rule();
      rules.push({ ...parsed, line, text: text.trim(), source });
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      errors.push({ line, column: error.column, message: error.message });
    }
  });
  return { rules, errors };
}
