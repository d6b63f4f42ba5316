/**
 * Validates tool arguments against the tool's input schema with ajv, before anything is sent.
 * The dialect follows the schema's `$schema` (MCP's default is 2020-12; many servers still emit
 * draft-07). Runs in the core, never in the renderer: ajv compiles schemas to functions, which the
 * renderer's Content-Security-Policy (no 'unsafe-eval') rightly forbids.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import Ajv2020 from 'ajv/dist/2020.js';
import Ajv2019 from 'ajv/dist/2019.js';
import AjvDraft07 from 'ajv/dist/ajv.js';

/** One rejected value, addressed by its path inside the arguments object. */
export interface ArgIssue {
  path: (string | number)[];
  message: string;
}

type AjvInstance = InstanceType<typeof Ajv2020>;

const OPTIONS = {
  allErrors: true,
  // Servers write all kinds of schemas: unknown keywords and formats must not break validation.
  strict: false,
  validateFormats: false,
  allowUnionTypes: true,
  logger: false as const,
};

/** One ajv per dialect, made on first use (building one compiles its meta-schema: not free). */
const instances: { draft2020?: AjvInstance; draft2019?: AjvInstance; draft07?: AjvInstance } = {};

function instanceFor(schema: Record<string, unknown>): AjvInstance {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(dialect)) return (instances.draft07 ??= new AjvDraft07(OPTIONS) as unknown as AjvInstance);
  if (/2019-09/.test(dialect)) return (instances.draft2019 ??= new Ajv2019(OPTIONS) as unknown as AjvInstance);
  return (instances.draft2020 ??= new Ajv2020(OPTIONS));
}

/** Compiled validators per schema object (catalog schemas are replaced, never mutated). `null`: cannot compile. */
const compiled = new WeakMap<object, ValidateFunction | null>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction | null {
  let validate = compiled.get(schema);
  if (validate !== undefined) return validate;
  try {
    // `$id`s of different tools may clash inside one ajv instance: compile a copy without it.
    const { $id: _id, ...rest } = schema;
    validate = instanceFor(schema).compile(rest);
  } catch {
    validate = null;
  }
  compiled.set(schema, validate);
  return validate;
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
  const validate = validatorFor(schema);
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

/** One line for a person (or the model): "a: Must be number; b: Required". */
export function describeIssues(issues: ArgIssue[]): string {
  return issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ');
}
