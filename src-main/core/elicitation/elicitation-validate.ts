/**
 * Checks an elicitation answer against its requested schema: the spec's flat subset (string with
 * formats, number, integer, boolean, single- and multi-select enums). Plain checks rather than ajv,
 * so the renderer can run the same rules and the messages read well in a form.
 */
import type { ElicitationContent } from '@contract';

export interface FieldIssue {
  path: string[];
  message: string;
}

type Field = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The allowed values of a single- or multi-select field, or undefined for free input. */
export function optionsOf(field: Field): string[] | undefined {
  const source = field.type === 'array' ? ((field.items ?? {}) as Field) : field;
  if (Array.isArray(source.enum)) return source.enum.map(String);
  const list = (source.oneOf ?? source.anyOf) as { const?: unknown }[] | undefined;
  return Array.isArray(list) ? list.map((o) => String(o.const)) : undefined;
}

/** Issues of `content` against `schema`; empty when it is acceptable. */
export function validateElicitation(
  schema: { properties: Record<string, Field>; required?: string[] },
  content: ElicitationContent,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const required = new Set(schema.required ?? []);
  for (const key of Object.keys(content)) {
    if (!(key in schema.properties)) issues.push({ path: [key], message: `${key} is not asked for` });
  }
  for (const [key, field] of Object.entries(schema.properties)) {
    const value = content[key];
    // Each message names its field as the form labels it, so it reads whole wherever it is shown.
    const label = typeof field.title === 'string' && field.title.trim() !== '' ? field.title : key;
    const fail = (message: string) => issues.push({ path: [key], message: `${label} ${message}` });
    if (value === undefined || value === '') {
      if (required.has(key)) fail('is required');
      continue;
    }
    const options = optionsOf(field);
    switch (field.type) {
      case 'string': {
        if (typeof value !== 'string') {
          fail('must be text');
          break;
        }
        if (options && !options.includes(value)) {
          fail('must be one of the choices');
          break;
        }
        if (typeof field.minLength === 'number' && value.length < field.minLength) fail(`must be at least ${field.minLength} characters`);
        if (typeof field.maxLength === 'number' && value.length > field.maxLength) fail(`must be at most ${field.maxLength} characters`);
        if (field.format === 'email' && !EMAIL.test(value)) fail('must be an email address');
        if (field.format === 'uri' && !isUri(value)) fail('must be a URL');
        if (field.format === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) fail('must be a date (YYYY-MM-DD)');
        if (field.format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) fail('must be a date and time');
        break;
      }
      case 'number':
      case 'integer': {
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          fail('must be a number');
          break;
        }
        if (field.type === 'integer' && !Number.isInteger(value)) fail('must be a whole number');
        if (typeof field.minimum === 'number' && value < field.minimum) fail(`must be at least ${field.minimum}`);
        if (typeof field.maximum === 'number' && value > field.maximum) fail(`must be at most ${field.maximum}`);
        break;
      }
      case 'boolean':
        if (typeof value !== 'boolean') fail('must be true or false');
        break;
      case 'array': {
        if (!Array.isArray(value)) {
          fail('must be a list of choices');
          break;
        }
        if (options && value.some((v) => !options.includes(v))) fail('must only contain the choices');
        if (typeof field.minItems === 'number' && value.length < field.minItems) fail(`choose at least ${field.minItems}`);
        if (typeof field.maxItems === 'number' && value.length > field.maxItems) fail(`choose at most ${field.maxItems}`);
        break;
      }
      default:
        fail('has a type Patchbay cannot ask for');
    }
  }
  return issues;
}

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}
