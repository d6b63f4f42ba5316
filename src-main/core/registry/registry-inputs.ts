import type { InstallField, InstallFieldKind, InstallValues } from '@contract';
import { fieldText } from '../install/install-kind';
import type { RegistryInput, RegistryInputWithVariables } from './registry-schema';

/** An input of an entry turned into form fields, and how to read its value back from the form. */
export interface ExpandedInput {
  fields: InstallField[];
  /** The value to use ('' when the user left an optional one empty). */
  resolve(values: InstallValues): string;
  /** Whether the value is a secret (the input or one of its variables says so). */
  secret: boolean;
}

const KINDS: Record<NonNullable<RegistryInput['format']>, InstallFieldKind> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  filepath: 'file',
};

/** One form field for an input the user fills in. */
function fieldFor(input: RegistryInput, id: string, label: string): InstallField {
  return {
    id,
    label,
    ...(input.description ? { description: input.description } : {}),
    kind: KINDS[input.format ?? 'string'],
    required: input.isRequired === true,
    secret: input.isSecret === true,
    ...(input.default !== undefined && input.isSecret !== true ? { default: input.default } : {}),
    ...(input.choices && input.choices.length > 0 ? { choices: input.choices } : {}),
    ...(input.placeholder ? { placeholder: input.placeholder } : {}),
  };
}

const CURLY = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The registry's `Input`/`InputWithVariables`: a fixed `value` is not the user's to change, but its
 * `{name}` parts that `variables` declares are (each becomes a field); without a `value`, the input
 * itself is one field. A `{name}` with no variable stays as written, as the schema says.
 */
export function expandInput(input: RegistryInputWithVariables, id: string, label: string): ExpandedInput {
  if (input.value === undefined) {
    const field = fieldFor(input, id, label);
    return { fields: [field], resolve: (values) => fieldText(field, values), secret: field.secret };
  }
  const fixed = input.value;
  const variables = input.variables ?? {};
  const used = [...new Set([...fixed.matchAll(CURLY)].map((match) => match[1]))].filter((name) => Object.hasOwn(variables, name));
  const fields = used.map((name) => fieldFor(variables[name], `${id}/${name}`, name));
  const byName = new Map(used.map((name, index) => [name, fields[index]]));
  return {
    fields,
    resolve: (values) => fixed.replace(CURLY, (whole, name: string) => (byName.has(name) ? fieldText(byName.get(name)!, values) : whole)),
    secret: input.isSecret === true || fields.some((field) => field.secret),
  };
}
