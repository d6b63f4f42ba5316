import { ENV_KEY_PATTERN } from '@contract';
import { fail, kindOf, orEmpty, readStringMap, type FieldsResult } from './field-checks';
import { own } from './read-jsonc';
import { ENV_PAIRS, type ImportedPair, type VariableResolver } from './variables';

/** What a local (stdio) entry contributes to the server. */
export interface LocalFields {
  transport: 'stdio';
  command: string;
  args: string[];
  env: ImportedPair[];
  cwd: string;
}

/** `command`, `args`, `env` and `cwd` of a local entry, with `${…}` variables resolved where Patchbay can. */
export function localFields(raw: Record<string, unknown>, variables: VariableResolver): FieldsResult<LocalFields> {
  // Patchbay cannot read the file, and importing without its variables would start a broken server.
  if (own(raw, 'envFile') !== undefined) {
    return fail('Uses envFile, which is not supported: copy its variables into "env" and paste again');
  }

  const command = own(raw, 'command');
  if (command === undefined || command === null || (typeof command === 'string' && command.trim() === '')) return fail('No command to run');
  if (typeof command !== 'string') return fail('"command" must be a string');

  const args = orEmpty(own(raw, 'args'), []);
  if (!Array.isArray(args)) return fail('"args" must be a list of strings');
  const badArg = args.findIndex((arg) => typeof arg !== 'string');
  if (badArg >= 0) return fail(`"args" must be a list of strings (item ${badArg + 1} is ${kindOf(args[badArg])})`);

  const env = readStringMap(orEmpty(own(raw, 'env'), {}), {
    field: 'env',
    shape: 'NAME: "value"',
    namePattern: ENV_KEY_PATTERN,
    nameNoun: 'environment variable name',
    nameRule: 'use letters, digits and _ only, not starting with a digit',
    valuesNoun: 'Environment variable values',
  });
  if (!env.ok) return env;

  const cwd = orEmpty(own(raw, 'cwd'), '');
  if (typeof cwd !== 'string') return fail('"cwd" must be a string');

  return {
    ok: true,
    fields: {
      transport: 'stdio',
      command: variables.expand(command, 'command'),
      args: (args as string[]).map((arg) => variables.expand(arg, 'args')),
      env: env.fields.map(([key, value]) => variables.pair(key, value, ENV_PAIRS)),
      cwd: variables.expand(cwd, 'cwd'),
    },
  };
}
