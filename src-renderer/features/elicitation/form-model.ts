/**
 * The fields of an elicitation's flat schema, for the form: kind, label, choices and default. The
 * core validates the answer (field errors come back by key); the form keeps values typed.
 */
import type { ElicitationContent, ElicitationValue } from '@contract';

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'multi';

export interface FormField {
  key: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  /** For text: the HTML input type (email, url, date…). */
  inputType: string;
  choices: { value: string; label: string }[];
  min?: number;
  max?: number;
  initial?: ElicitationValue;
}

type Schema = Record<string, unknown>;
const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

function choicesOf(source: Schema): { value: string; label: string }[] {
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(source.enumNames) ? (source.enumNames as unknown[]) : [];
    return source.enum.map((v, i) => ({ value: String(v), label: String(names[i] ?? v) }));
  }
  const list = (source.oneOf ?? source.anyOf) as { const?: unknown; title?: string }[] | undefined;
  return Array.isArray(list) ? list.map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) })) : [];
}

export function fieldsOf(schema: { properties: Record<string, Schema>; required?: string[] }): FormField[] {
  return Object.entries(schema.properties).map(([key, s]) => {
    const multi = s.type === 'array';
    const choices = choicesOf(multi ? ((s.items ?? {}) as Schema) : s);
    const kind: FieldKind = multi
      ? 'multi'
      : choices.length
        ? 'select'
        : s.type === 'boolean'
          ? 'boolean'
          : s.type === 'integer'
            ? 'integer'
            : s.type === 'number'
              ? 'number'
              : 'text';
    const initial = s.default as ElicitationValue | undefined;
    return {
      key,
      kind,
      label: typeof s.title === 'string' ? s.title : key,
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      required: (schema.required ?? []).includes(key),
      inputType: INPUT_TYPES[String(s.format)] ?? 'text',
      choices,
      ...(typeof s.minimum === 'number' ? { min: s.minimum } : {}),
      ...(typeof s.maximum === 'number' ? { max: s.maximum } : {}),
      ...(initial !== undefined ? { initial } : {}),
    };
  });
}

/** The defaults, pre-filled. */
export function initialValues(fields: readonly FormField[]): ElicitationContent {
  const values: ElicitationContent = {};
  for (const f of fields) if (f.initial !== undefined) values[f.key] = f.initial;
  return values;
}
