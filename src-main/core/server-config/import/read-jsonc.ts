import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { HostCallError, MAX_IMPORT_CHARS } from '@contract';

/** What each parser error means, in words a user pasting a config file can act on. */
const PROBLEMS: Record<string, string> = {
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected a colon (:) after the property name',
  CommaExpected: 'expected a comma (,) before this',
  CloseBraceExpected: 'expected a closing brace (})',
  CloseBracketExpected: 'expected a closing bracket (])',
  EndOfFileExpected: 'unexpected text after the end of the JSON',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'comment is not closed (missing */)',
  UnexpectedEndOfString: 'string is not closed (missing ")',
  UnexpectedEndOfNumber: 'number is cut short',
  InvalidUnicode: 'invalid \\u escape in a string',
  // Pasted Windows paths ("C:\Users\…") are the usual cause.
  InvalidEscapeCharacter: 'invalid escape in a string (write a backslash as \\\\)',
  InvalidCharacter: 'invalid character in a string (write a line break as \\n)',
};

/**
 * Parses pasted JSON with comments and trailing commas (VS Code's mcp.json and settings.json are
 * JSONC) into a syntax tree. A tree rather than `parse()`'s plain object so callers can walk the
 * servers in file order with every key as written: a plain object moves integer-like keys ("2")
 * first, keeps only the last of two equal keys, and turns a "__proto__" key into a prototype.
 *
 * @throws HostCallError `invalid_input` saying what is wrong and where (line and column, 1-based),
 *   with `data` `[{ path: ['text'], message, line, column }]`.
 */
export function readJsonc(text: string): Node {
  // The RPC layer caps the text already; this keeps other callers to the same bound.
  if (text.length > MAX_IMPORT_CHARS) fail(`The text is too long to be a config file (over ${MAX_IMPORT_CHARS} characters)`);
  if (text.trim() === '') fail('The text is empty: paste the contents of a config file');
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, { allowTrailingComma: true });
  } catch (error) {
    // The parser recurses: absurdly deep nesting overflows the stack. No config file nests like that.
    if (error instanceof RangeError) fail('The text is nested too deeply to be a config file');
    throw error;
  }
  // Only the first error: the ones after it are mostly the parser losing its footing.
  if (errors.length > 0) failAt(text, errors[0]);
  if (!root) fail('The text holds no JSON value');
  return root;
}

/** The value node of an object's member, or undefined. The last wins for repeated keys, as in JSON.parse. */
export function memberOf(node: Node | undefined, key: string): Node | undefined {
  return membersOf(node).findLast(([name]) => name === key)?.[1];
}

/** An object node's members in file order, repeated keys included; empty for anything else. */
export function membersOf(node: Node | undefined): [string, Node][] {
  if (node?.type !== 'object') return [];
  const members: [string, Node][] = [];
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key?.type === 'string' && value) members.push([key.value as string, value]);
  }
  return members;
}

/** True for a JSON object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object's own property. Values come from JSON, where a "__proto__" key becomes the prototype:
 * plain property access would then read keys the file never set on that object.
 */
export function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

function failAt(text: string, error: ParseError): never {
  const { line, column } = lineColumnAt(text, pinpoint(text, error));
  const message = `Invalid JSON at line ${line}, column ${column}: ${describe(text, error)}`;
  throw new HostCallError('invalid_input', message, [{ path: ['text'], message, line, column }]);
}

/**
 * Where to point. The parser reports a bad escape at the start of its string; in a long Windows
 * path the user needs the backslash itself.
 */
function pinpoint(text: string, error: ParseError): number {
  const code = printParseErrorCode(error.error);
  if (code !== 'InvalidEscapeCharacter' && code !== 'InvalidUnicode') return error.offset;
  const token = text.slice(error.offset, error.offset + error.length);
  // Walk escapes left to right so "\\P" (an escaped backslash, then P) is not taken for "\P".
  for (const match of token.matchAll(/\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}|(.?))/g)) {
    if (match[1] !== undefined) return error.offset + match.index;
  }
  return error.offset;
}

function describe(text: string, error: ParseError): string {
  const code = printParseErrorCode(error.error);
  if (code !== 'InvalidSymbol') return PROBLEMS[code] ?? 'unexpected input';
  const token = text.slice(error.offset, error.offset + Math.min(error.length, 30));
  // Single quotes are the commonest mistake when a config is copied from JavaScript or Python.
  const hint = token.startsWith("'") ? ' (JSON strings need double quotes)' : '';
  return `unexpected ${token}${hint}`;
}

/** 1-based line and column of an offset; a column counts UTF-16 units, as editors mostly do. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function fail(message: string): never {
  throw new HostCallError('invalid_input', message, [{ path: ['text'], message }]);
}
