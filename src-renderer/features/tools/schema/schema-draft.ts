/**
 * The Run form's editable state: one draft per field (text as typed, so "1." or "" can be on screen),
 * turned into the arguments object on Run — with the checks a person expects next to each field
 * (required, a number that is not one, JSON that does not parse). The core then validates the whole
 * object against the schema with ajv and its complaints land next to the same fields.
 */
import type { JsonValue } from '@contract';
import type { FieldModel } from './schema-model';

export type Draft =
  | { kind: 'text'; text: string }
  | { kind: 'boolean'; value: boolean | undefined }
  | { kind: 'enum'; index: number }
  | { kind: 'array'; items: Draft[] }
  | { kind: 'object'; fields: Record<string, Draft> };

export type Path = (string | number)[];

/** One complaint, addressed like the host's: path segments inside the arguments object. */
export interface DraftIssue {
  path: Path;
  message: string;
}

const isObject = (value: unknown): value is Record<string, JsonValue> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The draft for a model, from `value` (or else the schema's default). */
export function initialDraft(model: FieldModel, value: JsonValue | undefined = model.default): Draft {
  switch (model.kind) {
    case 'string':
      return { kind: 'text', text: typeof value === 'string' ? value : '' };
    case 'number':
      return { kind: 'text', text: typeof value === 'number' ? String(value) : '' };
    case 'json':
      return { kind: 'text', text: value === undefined ? '' : JSON.stringify(value, null, 2) };
    case 'boolean':
      return { kind: 'boolean', value: typeof value === 'boolean' ? value : undefined };
    case 'enum':
      return {
        kind: 'enum',
        index: value === undefined ? -1 : model.options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value)),
      };
    case 'array':
      return { kind: 'array', items: Array.isArray(value) ? value.map((item) => initialDraft(model.item, item)) : [] };
    case 'object': {
      const given = isObject(value) ? value : {};
      return { kind: 'object', fields: Object.fromEntries(model.properties.map((p) => [p.name, initialDraft(p.model, given[p.name])])) };
    }
  }
}

/** A new draft with the one at `path` replaced by `update(old)`. */
export function updateDraft(draft: Draft, path: Path, update: (old: Draft) => Draft): Draft {
  if (path.length === 0) return update(draft);
  const [head, ...rest] = path;
  if (draft.kind === 'object' && typeof head === 'string') {
    return { ...draft, fields: { ...draft.fields, [head]: updateDraft(draft.fields[head], rest, update) } };
  }
  if (draft.kind === 'array' && typeof head === 'number') {
    return { ...draft, items: draft.items.map((item, i) => (i === head ? updateDraft(item, rest, update) : item)) };
  }
  return draft;
}

/**
 * The JSON value of a draft (undefined: leave it out), adding the issues found on the way.
 * `required`: an empty value is a "Required" issue rather than an omission.
 */
export function draftToValue(model: FieldModel, draft: Draft, path: Path, issues: DraftIssue[], required: boolean): JsonValue | undefined {
  const missing = () => {
    if (required) issues.push({ path, message: 'Required' });
    return undefined;
  };
  if (draft.kind === 'text') {
    const text = draft.text;
    if (model.kind === 'string') return text === '' ? missing() : text;
    if (text.trim() === '') return missing();
    if (model.kind === 'number') {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) return void issues.push({ path, message: model.integer ? 'Enter a whole number' : 'Enter a number' });
      if (model.integer && !Number.isInteger(n)) return void issues.push({ path, message: 'Enter a whole number' });
      return n;
    }
    try {
      return JSON.parse(text) as JsonValue;
    } catch (error) {
      return void issues.push({ path, message: `Not valid JSON: ${(error as Error).message}` });
    }
  }
  if (draft.kind === 'boolean') return draft.value === undefined ? missing() : draft.value;
  if (draft.kind === 'enum' && model.kind === 'enum') return draft.index < 0 ? missing() : model.options[draft.index];
  if (draft.kind === 'array' && model.kind === 'array') {
    const values = draft.items.map((item, i) => draftToValue(model.item, item, [...path, i], issues, true));
    return values.length === 0 && !required ? undefined : (values as JsonValue[]);
  }
  if (draft.kind === 'object' && model.kind === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const property of model.properties) {
      const value = draftToValue(property.model, draft.fields[property.name], [...path, property.name], issues, property.required);
      if (value !== undefined) out[property.name] = value;
    }
    // An optional nested object left entirely empty is left out.
    return path.length > 0 && !required && Object.keys(out).length === 0 ? undefined : out;
  }
  return undefined;
}

/** Issues keyed by their path ("a.0.b"), for looking up a field's error. */
export function issuesByPath(issues: DraftIssue[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const issue of issues) if (!map.has(pathKey(issue.path))) map.set(pathKey(issue.path), issue.message);
  return map;
}

export const pathKey = (path: Path) => path.join('.');
