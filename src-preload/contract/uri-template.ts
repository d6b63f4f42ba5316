/**
 * URI templates (RFC 6570), as resource templates use them: `parseUriTemplate` checks a template's
 * syntax and names its variables (what the form asks for); `expandUriTemplate` turns filled-in values
 * into a URI with the `url-template` library (the RFC's expansion rules, all four levels). Shared by
 * the host (which checks what servers send) and the renderer (which builds the forms); no Node, no DOM.
 */
import { parseTemplate } from 'url-template';

/** One variable of a template. */
export interface TemplateVariable {
  name: string;
  /**
   * Path-like expressions (`{id}`, `{+path}`, `{/segments}`, `{.ext}`) make no sense empty; query-like
   * ones (`{?q}`, `{&page}`, `{;p}`, `{#frag}`) are left out of the URI when empty, so they are optional.
   */
  required: boolean;
}

export type ParsedUriTemplate = { ok: true; variables: TemplateVariable[] } | { ok: false; error: string };

/** Longest template Patchbay accepts (far beyond any real one; bounds the work a server can cause). */
export const MAX_TEMPLATE_CHARS = 8_192;

const OPERATORS = '+#./;?&';
const RESERVED_OPERATORS = '=,!@|';
const OPTIONAL_OPERATORS = '?&;#';
/** varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
/** Characters a template may not contain outside an expression (controls and space). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a template may not contain
const BAD_LITERAL = /[\u0000-\u0020\u007f"<>\\^`|]/;

/** Checks `template` against RFC 6570's grammar; names each variable once, in order of appearance. */
export function parseUriTemplate(template: string): ParsedUriTemplate {
  if (template.length === 0) return { ok: false, error: 'The template is empty.' };
  if (template.length > MAX_TEMPLATE_CHARS) return { ok: false, error: `The template is longer than ${MAX_TEMPLATE_CHARS} characters.` };
  const variables = new Map<string, TemplateVariable>();
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '}') return { ok: false, error: `Unexpected "}" at position ${i + 1}.` };
    if (ch !== '{') {
      if (BAD_LITERAL.test(ch))
        return { ok: false, error: `Character ${JSON.stringify(ch)} at position ${i + 1} is not allowed in a URI template.` };
      i++;
      continue;
    }
    const end = template.indexOf('}', i + 1);
    const nested = template.indexOf('{', i + 1);
    if (end === -1) return { ok: false, error: `The expression opened at position ${i + 1} is never closed.` };
    if (nested !== -1 && nested < end) return { ok: false, error: `Expressions cannot be nested (position ${nested + 1}).` };
    const problem = parseExpression(template.slice(i + 1, end), variables);
    if (problem) return { ok: false, error: `In "{${template.slice(i + 1, end)}}": ${problem}` };
    i = end + 1;
  }
  return { ok: true, variables: [...variables.values()] };
}

function parseExpression(body: string, variables: Map<string, TemplateVariable>): string | undefined {
  if (body.length === 0) return 'the expression is empty.';
  let operator = '';
  if (OPERATORS.includes(body[0])) operator = body[0];
  else if (RESERVED_OPERATORS.includes(body[0])) return `the operator "${body[0]}" is reserved.`;
  const list = body.slice(operator.length);
  if (list.length === 0) return 'the expression names no variable.';
  for (const spec of list.split(',')) {
    const match = /^([^:*]*)(?::(\d+)|(\*))?$/.exec(spec);
    if (!match) return `"${spec}" is not a variable (a name, optionally followed by :length or *).`;
    const [, name, prefix] = match;
    if (!VARNAME.test(name)) return `"${name}" is not a valid variable name (letters, digits, _ and . only).`;
    if (prefix !== undefined && (Number(prefix) < 1 || Number(prefix) > 9999 || prefix.startsWith('0')))
      return `the length ":${prefix}" must be between 1 and 9999.`;
    const required = operator === '' || !OPTIONAL_OPERATORS.includes(operator);
    const known = variables.get(name);
    variables.set(name, { name, required: (known?.required ?? false) || required });
  }
  return undefined;
}

/** Expands a template the parser accepted; empty values are left out as the RFC says for undefined ones. */
export function expandUriTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const context: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== '') context[name] = value;
  return parseTemplate(template).expand(context);
}
