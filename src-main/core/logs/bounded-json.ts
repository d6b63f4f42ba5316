/**
 * JSON serialization with a size budget. A server may send a 10 MB result; the log keeps its
 * beginning, and must not pay for serializing all of it first (nor hold the whole string).
 */

/** Thrown internally once the budget is spent, to unwind the walk. */
const STOP = Symbol('budget spent');

/** The serialized text and whether it was cut. */
export interface BoundedJson {
  text: string;
  truncated: boolean;
}

/**
 * Serializes `value` like `JSON.stringify(value, null, indent)` (indent 0: compact), stopping once
 * `maxChars` is exceeded: the result is then the first `maxChars` characters and `truncated` is true.
 * Work is proportional to the output kept, not to the size of `value`.
 */
export function boundedJson(value: unknown, maxChars: number, indent = 2, sizeHint?: number): BoundedJson {
  if (sizeHint !== undefined && sizeHint <= Math.min(FAST_PATH_MAX_BYTES, Math.max(FAST_PATH_MIN_BYTES, 8 * maxChars))) {
    const fast = nativeJson(value, maxChars, indent);
    if (fast) return fast;
  }
  const parts: string[] = [];
  let length = 0;
  const push = (s: string) => {
    parts.push(s);
    length += s.length;
    if (length > maxChars) throw STOP;
  };
  const room = () => Math.max(0, maxChars - length + 1);
  const colon = indent > 0 ? ': ' : ':';

  const walk = (node: unknown, depth: number): void => {
    if (node === null || node === undefined || typeof node === 'function' || typeof node === 'symbol') return push('null');
    if (typeof node === 'string') {
      // Cut long strings before escaping them: never escape more than can be kept.
      return push(JSON.stringify(node.length > room() ? node.slice(0, room()) : node));
    }
    if (typeof node === 'number') return push(Number.isFinite(node) ? String(node) : 'null');
    if (typeof node === 'boolean') return push(String(node));
    if (typeof node === 'bigint') return push(node.toString());
    const pad = indent > 0 ? `\n${' '.repeat(indent * (depth + 1))}` : '';
    const close = indent > 0 ? `\n${' '.repeat(indent * depth)}` : '';
    if (Array.isArray(node)) {
      if (node.length === 0) return push('[]');
      push('[');
      node.forEach((item, i) => {
        push(i === 0 ? pad : `,${pad}`);
        walk(item, depth + 1);
      });
      return push(`${close}]`);
    }
    const entries = Object.entries(node as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
    if (entries.length === 0) return push('{}');
    push('{');
    entries.forEach(([key, item], i) => {
      push(`${i === 0 ? pad : `,${pad}`}${JSON.stringify(key)}${colon}`);
      walk(item, depth + 1);
    });
    push(`${close}}`);
  };

  try {
    walk(value, 0);
    return { text: parts.join(''), truncated: false };
  } catch (error) {
    if (error !== STOP) throw error;
    return { text: parts.join('').slice(0, maxChars), truncated: true };
  }
}

/**
 * Below this size (of the value's compact JSON, e.g. a wire message's byte count) the native
 * serializer is used: serializing all of a small value costs less than walking it in JS, and cutting
 * the full text gives the same result as the budgeted walk.
 */
const FAST_PATH_MAX_BYTES = 64 * 1024;
/**
 * …and only while the value is small next to what is kept: `JSON.stringify` pays for the whole value,
 * the walk only for the characters kept, so the native path serves up to 8 × `maxChars`, and at least 2 KB.
 */
const FAST_PATH_MIN_BYTES = 2048;

/** `JSON.stringify`, cut to `maxChars`; undefined when it cannot stand in for the walk (bigint, top-level undefined). */
function nativeJson(value: unknown, maxChars: number, indent: number): BoundedJson | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, indent > 0 ? indent : undefined) as string | undefined;
  } catch {
    return undefined;
  }
  if (typeof text !== 'string') return undefined;
  return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
}

/**
 * JSON text indented like `JSON.stringify(value, null, 2)`, whatever its layout (compact as it crossed
 * the wire, or already indented). Text that does not parse — cut at a size cap, or redacted into
 * something else — is re-indented token by token all the same: strings are copied as they are.
 */
export function indentJson(text: string, indent = 2): string {
  try {
    return JSON.stringify(JSON.parse(text), null, indent);
  } catch {
    return reindent(text, indent);
  }
}

function reindent(text: string, indent: number): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${' '.repeat(depth * indent)}`;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      let j = i + 1;
      while (isSpace(text[j])) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out += c + text[j];
        i = j;
      } else {
        depth += 1;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth = Math.max(0, depth - 1);
      out += newline() + c;
    } else if (c === ',') out += `,${newline()}`;
    else if (c === ':') out += ': ';
    else if (!isSpace(c)) out += c;
  }
  return out;
}
