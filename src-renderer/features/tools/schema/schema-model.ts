/**
 * What the Run form can draw for a JSON Schema: strings, numbers, integers, booleans, enums, arrays,
 * nested objects, with titles, descriptions, required fields and defaults. Anything else (oneOf,
 * $ref, conditionals, free-form maps, tuples…) becomes a JSON editor for that field: the core
 * validates every argument against the full schema (ajv) before anything is sent, so the form never
 * has to understand all of JSON Schema to be safe.
 */
import type { JsonValue } from '@contract';

interface Common {
  title?: string;
  description?: string;
  default?: JsonValue;
}

export type FieldModel = Common &
  (
    | { kind: 'string'; multiline: boolean; format?: string }
    | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number }
    | { kind: 'boolean' }
    | { kind: 'enum'; options: JsonValue[] }
    | { kind: 'array'; item: FieldModel }
    | { kind: 'object'; properties: PropertyModel[] }
    /** Edited as JSON text. `reason` says why ("uses oneOf", "is a free-form object"…), for the hint. */
    | { kind: 'json'; reason: string }
  );

export interface PropertyModel {
  name: string;
  required: boolean;
  model: FieldModel;
}

type Schema = Record<string, unknown>;

/** Keywords whose meaning the form cannot render; a schema using one is edited as JSON. */
const UNRENDERABLE = [
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  '$ref',
  '$dynamicRef',
  'if',
  'then',
  'else',
  'patternProperties',
  'prefixItems',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
];

const MAX_DEPTH = 6;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

function common(schema: Schema): Common {
  return {
    ...(text(schema.title) ? { title: text(schema.title) } : {}),
    ...(text(schema.description) ? { description: text(schema.description) } : {}),
    ...(schema.default !== undefined ? { default: schema.default as JsonValue } : {}),
  };
}

/** The one type a schema declares, treating `[T, "null"]` as T; undefined when none or several. */
function singleType(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const rest = type.filter((t) => t !== 'null');
    return rest.length === 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
  }
  if (isSchema(schema.properties)) return 'object';
  return undefined;
}

/** The form model of one schema (a field, or the whole arguments object). */
export function analyzeSchema(schema: unknown, depth = 0): FieldModel {
  if (!isSchema(schema)) return { kind: 'json', reason: 'has no schema' };
  const base = common(schema);
  const unrenderable = UNRENDERABLE.find((keyword) => keyword in schema);
  if (unrenderable) return { ...base, kind: 'json', reason: `uses "${unrenderable}"` };
  if (depth > MAX_DEPTH) return { ...base, kind: 'json', reason: 'is nested too deeply' };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { ...base, kind: 'enum', options: schema.enum as JsonValue[] };
  if ('const' in schema) return { ...base, kind: 'enum', options: [schema.const as JsonValue] };
  switch (singleType(schema)) {
    case 'string':
      return {
        ...base,
        kind: 'string',
        multiline: Number(schema.maxLength ?? 0) > 200 || schema.format === 'textarea',
        ...(text(schema.format) ? { format: text(schema.format) } : {}),
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: singleType(schema) === 'integer',
        ...(typeof schema.minimum === 'number' ? { minimum: schema.minimum } : {}),
        ...(typeof schema.maximum === 'number' ? { maximum: schema.maximum } : {}),
      };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'array': {
      const item = isSchema(schema.items) ? analyzeSchema(schema.items, depth + 1) : undefined;
      if (!item || item.kind === 'json') return { ...base, kind: 'json', reason: 'is an array of free-form items' };
      return { ...base, kind: 'array', item };
    }
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      if (Object.keys(properties).length === 0 && schema.additionalProperties !== false && depth > 0) {
        return { ...base, kind: 'json', reason: 'is a free-form object' };
      }
      if (isSchema(schema.additionalProperties)) return { ...base, kind: 'json', reason: 'has extra properties with their own schema' };
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
      return {
        ...base,
        kind: 'object',
        properties: Object.entries(properties).map(([name, child]) => ({
          name,
          required: required.has(name),
          model: analyzeSchema(child, depth + 1),
        })),
      };
    }
    default:
      return { ...base, kind: 'json', reason: 'has no single type' };
  }
}

/** The label of an argument: its schema title, else its property name. */
export function labelOf(name: string, model: FieldModel): string {
  return model.title ?? name;
}
