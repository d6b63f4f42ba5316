/**
 * Validates tool arguments against the tool's input schema with ajv, before anything is sent (the
 * schema is compiled on the tool's first call: see schema-compiler.ts).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { compiledSchema } from './schema-compiler';

/** One rejected value, addressed by its path inside the arguments object. */
export interface ArgIssue {
  path: (string | number)[];
  message: string;
}

/** JSON pointer ("/a/0/b") to path segments; all-digit segments become array indexes. */
function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function toIssue(error: ErrorObject): ArgIssue {
  const path = pointerToPath(error.instancePath);
  if (error.keyword === 'required') {
    return { path: [...path, String((error.params as { missingProperty: string }).missingProperty)], message: 'Required' };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    return { path: [...path, extra], message: `Not accepted by this tool ("${extra}" is not a known argument)` };
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return { path, message: `Must be one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` };
  }
  const message = error.message ?? `fails "${error.keyword}"`;
  return { path, message: message.charAt(0).toUpperCase() + message.slice(1) };
}

/**
 * The issues of `args` against `schema` (empty when valid). A schema ajv cannot compile is not
 * held against the call: the server validates its own arguments too, and says so in its error.
 */
export function validateArgs(schema: Record<string, unknown> | undefined, args: unknown): ArgIssue[] {
  if (!schema) return [];
  const validate = compiledSchema(schema, 'args');
  if (!validate || validate(args)) return [];
  const seen = new Set<string>();
  const issues: ArgIssue[] = [];
  for (const error of validate.errors ?? []) {
    // allOf/anyOf branches report the same place several times; one message per path is enough.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const issue = toIssue(error);
    const key = JSON.stringify(issue.path);
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  if (issues.length === 0) issues.push({ path: [], message: 'The arguments do not match the tool\u2019s input schema' });
  return issues;
}

/**
 * The arguments without a `null` for an optional top-level property whose schema does not take
 * null: models send null for "not given" (OpenAI's strict mode makes every property required and
 * optional ones nullable), and the 2026-07-28 transport treats a null parameter as absent (no
 * `Mcp-Param-*` header). Sending it on would only fail the schema; dropping it means what was meant.
 */
export function withoutNullOptionals(schema: Record<string, unknown> | undefined, args: Record<string, unknown>): Record<string, unknown> {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object') return args;
  // Most calls have no null at all: no set, no entries, no copy.
  if (!hasNullMember(args)) return args;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const takesNull = (property: unknown) => {
    if (!property || typeof property !== 'object') return true;
    const type = (property as { type?: unknown }).type;
    // Only a declared type that leaves null out is a clear "no": anything else is left to validation.
    if (typeof type === 'string') return type === 'null';
    if (Array.isArray(type)) return type.includes('null');
    return true;
  };
  const entries = Object.entries(args).filter(
    ([name, value]) => !(value === null && !required.has(name) && !takesNull((properties as Record<string, unknown>)[name])),
  );
  return entries.length === Object.keys(args).length ? args : Object.fromEntries(entries);
}

function hasNullMember(args: Record<string, unknown>): boolean {
  for (const key in args) if (args[key] === null && Object.hasOwn(args, key)) return true;
  return false;
}

/** One line for a person (or the model): "a: Must be number; b: Required". */
export function describeIssues(issues: ArgIssue[]): string {
  return issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ');
}
