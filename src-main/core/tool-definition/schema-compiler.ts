/**
 * Compiles JSON Schemas with ajv, once per schema object, on first use.
 *
 * The dialect follows the schema's `$schema` (MCP's default is 2020-12; many servers still emit
 * draft-07). Each schema is compiled the first time something validates against it — a tool's
 * arguments on its first call, its structured result on the first result — never for a whole catalog
 * at once, and the compiled function is cached per schema object: catalog schemas are replaced,
 * never mutated, so the function goes when its catalog does. (ajv would keep every schema it
 * compiled for the life of the process; each is removed from it right after compiling.)
 * Runs in the core, never in the renderer: ajv compiles schemas to functions, which the renderer's
 * Content-Security-Policy (no 'unsafe-eval') rightly forbids.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import Ajv2020 from 'ajv/dist/2020.js';
import Ajv2019 from 'ajv/dist/2019.js';
import AjvDraft07 from 'ajv/dist/ajv.js';
import addFormats from 'ajv-formats';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

type AjvInstance = InstanceType<typeof Ajv2020>;

/**
 * `args`: tool arguments, before a call (unknown keywords and formats never block a call: the server
 * validates its own arguments too). `output`: structured results, with formats checked as the SDK's
 * own validator did.
 */
export type SchemaUse = 'args' | 'output';

const OPTIONS = {
  allErrors: true,
  // Servers write all kinds of schemas: unknown keywords must not break validation.
  strict: false,
  allowUnionTypes: true,
  logger: false as const,
};

type Dialect = 'draft2020' | 'draft2019' | 'draft07';
/** One ajv per use and dialect, made on first use (building one compiles its meta-schema: not free). */
const instances = new Map<string, AjvInstance>();

function instanceFor(schema: Record<string, unknown>, use: SchemaUse): AjvInstance {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const dialect: Dialect = /draft-0[4-7]/.test(declared) ? 'draft07' : /2019-09/.test(declared) ? 'draft2019' : 'draft2020';
  const key = `${use}:${dialect}`;
  let ajv = instances.get(key);
  if (!ajv) {
    const Engine = dialect === 'draft07' ? AjvDraft07 : dialect === 'draft2019' ? Ajv2019 : Ajv2020;
    // Output: as the SDK's own validator (formats checked, the schema itself not).
    const options =
      use === 'output' ? { ...OPTIONS, validateFormats: true, validateSchema: false } : { ...OPTIONS, validateFormats: false };
    ajv = new Engine(options) as unknown as AjvInstance;
    if (use === 'output') addFormats(ajv as never);
    instances.set(key, ajv);
  }
  return ajv;
}

/** Compiled validators per schema object and use. `null`: the schema cannot be compiled. */
const compiled = { args: new WeakMap<object, ValidateFunction | null>(), output: new WeakMap<object, ValidateFunction | null>() };

/** The compiled validator of `schema` (compiled now if this is its first use); null when ajv cannot compile it. */
export function compiledSchema(schema: Record<string, unknown>, use: SchemaUse): ValidateFunction | null {
  let validate = compiled[use].get(schema);
  if (validate !== undefined) return validate;
  const ajv = instanceFor(schema, use);
  // `$id`s of different tools (and servers) may clash inside one ajv instance: compile a copy without it.
  const { $id: _id, ...rest } = schema;
  try {
    validate = ajv.compile(rest);
  } catch {
    validate = null;
  } finally {
    ajv.removeSchema(rest);
  }
  compiled[use].set(schema, validate);
  return validate;
}

/**
 * The SDK client's JSON Schema validator (a tool's structured result against its `outputSchema`), on
 * the same per-schema-object cache. The SDK asks for a tool's validator when that tool is called (the
 * connection hands it the tool's definition); its default would compile every output schema of a
 * listing at a server's first call and keep them for good.
 */
export class LazySchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const target = schema as Record<string, unknown>;
    const validate = compiledSchema(target, 'output');
    // The SDK reports a schema that does not compile as the tool's invalid outputSchema.
    if (!validate) throw new Error('ajv could not compile it');
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: instanceFor(target, 'output').errorsText(validate.errors) };
  }
}
