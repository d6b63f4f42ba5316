import {
  HostCallError,
  ServerInputSchema,
  type InstallField,
  type InstallValues,
  type RegistryInstallOption,
  type ServerInputParsed,
} from '@contract';
import { missingFields } from '../install/install-kind';
import { expandInput } from './registry-inputs';
import type { RegistryArgument, RegistryKeyValue, RegistryPackage, RegistryRemote, RegistryServer } from './registry-schema';

/** One way to install an entry: one of its packages or one of its remotes. */
export type RegistryOption = { type: 'package'; pkg: RegistryPackage } | { type: 'remote'; remote: RegistryRemote };

/** What a package type runs with, when Patchbay supports it. */
const RUNNERS: Record<string, { command: string; identifier: RegExp }> = {
  npm: { command: 'npx', identifier: /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/ },
  pypi: { command: 'uvx', identifier: /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/ },
  oci: { command: 'docker', identifier: /^[a-z0-9][a-z0-9._\-/]*(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/ },
};
const UNSUPPORTED: Record<string, string> = {
  nuget: 'NuGet packages (dnx) are not supported yet',
  mcpb: 'Bundles from a registry are not downloaded yet: download the .mcpb file and use Install bundle',
};
/** Where each package type normally comes from (an entry naming another registry gets a note). */
const DEFAULT_PACKAGE_REGISTRIES: Record<string, string> = {
  npm: 'https://registry.npmjs.org',
  pypi: 'https://pypi.org',
  oci: 'https://docker.io',
};
/** A package version as the registry requires it: exact, no ranges, and never taken for an option. */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,254}$/;

/** Every package, then every remote, of an entry. */
export function registryOptions(server: RegistryServer): RegistryOption[] {
  return [
    ...(server.packages ?? []).map((pkg): RegistryOption => ({ type: 'package', pkg })),
    ...(server.remotes ?? []).map((remote): RegistryOption => ({ type: 'remote', remote })),
  ];
}

/** Why Patchbay cannot install this option, or undefined when it can. */
function unsupportedReason(option: RegistryOption): string | undefined {
  if (option.type === 'remote') return /^https?:\/\/|^\{/.test(option.remote.url) ? undefined : 'its URL is not http(s)';
  const { pkg } = option;
  const runner = RUNNERS[pkg.registryType];
  if (!runner) return UNSUPPORTED[pkg.registryType] ?? `${pkg.registryType} packages are not supported`;
  if (pkg.transport.type !== 'stdio') return `it runs a local ${pkg.transport.type} server, which Patchbay does not start yet`;
  if (!runner.identifier.test(pkg.identifier)) return `its package name ${JSON.stringify(pkg.identifier.slice(0, 80))} is not valid`;
  if (pkg.version !== undefined && !VERSION.test(pkg.version))
    return `its version ${JSON.stringify(pkg.version.slice(0, 40))} is not valid`;
  return undefined;
}

/** The option as the list shows it. */
export function describeOption(option: RegistryOption, index: number): RegistryInstallOption {
  const reason = unsupportedReason(option);
  const kind = option.type === 'package' ? option.pkg.registryType : option.remote.type;
  const label =
    option.type === 'package'
      ? `${option.pkg.registryType} ${option.pkg.identifier}${option.pkg.version ? ` ${option.pkg.version}` : ''}`
      : `Remote ${option.remote.url}`;
  return { index, kind, label, supported: reason === undefined, ...(reason ? { unsupportedReason: reason } : {}) };
}

/** Environment variables or headers: each a field (or fields for its variables), dropped when left empty and optional. */
function pairInputs(list: readonly RegistryKeyValue[] | undefined, prefix: string) {
  return (list ?? []).map((item) => ({
    key: item.name,
    required: item.isRequired === true,
    ...expandInput(item, `${prefix}:${item.name}`, item.name),
  }));
}

/** Arguments: a positional one is its value; a named one `--name value` (a boolean one just `--name` when ticked). */
function argumentInputs(list: readonly RegistryArgument[] | undefined, prefix: string) {
  return (list ?? []).map((arg, index) => {
    const id = `${prefix}:${index}`;
    if (arg.type === 'positional') {
      const input = expandInput(arg, id, arg.valueHint ?? `Argument ${index + 1}`);
      return { fields: input.fields, secret: input.secret, tokens: (values: InstallValues) => nonEmpty([input.resolve(values)]) };
    }
    const input = expandInput(arg, id, arg.name);
    const flag = arg.value === undefined && arg.format === 'boolean';
    return {
      fields: input.fields,
      secret: input.secret,
      tokens: (values: InstallValues) => {
        const value = input.resolve(values);
        if (flag) return value === 'true' ? [arg.name] : [];
        return value === '' && arg.value === undefined ? [] : [arg.name, value];
      },
    };
  });
}

const nonEmpty = (parts: string[]) => parts.filter((part) => part !== '');

/** The fields an option asks for, in the order the form shows them. */
export function optionFields(option: RegistryOption): InstallField[] {
  if (option.type === 'remote') {
    const url = expandInput({ value: option.remote.url, variables: option.remote.variables }, 'url', 'URL');
    return [...url.fields, ...pairInputs(option.remote.headers, 'header').flatMap((pair) => pair.fields)];
  }
  const { pkg } = option;
  return [
    ...pairInputs(pkg.environmentVariables, 'env').flatMap((pair) => pair.fields),
    ...argumentInputs(pkg.runtimeArguments, 'runtime').flatMap((arg) => arg.fields),
    ...argumentInputs(pkg.packageArguments, 'package').flatMap((arg) => arg.fields),
  ];
}

/**
 * The server an option and the form's values make: npm → `npx -y name@version`, PyPI → `uvx
 * name==version`, OCI → `docker run -i --rm … image` (environment passed by name with `-e`, so values
 * stay out of the command line), each with the declared runtime and package arguments; a remote → its
 * URL and headers. Secret environment variables and headers are stored sealed.
 */
export function buildRegistryServer(
  option: RegistryOption,
  name: string,
  values: InstallValues,
): { server: ServerInputParsed; missing: string[]; notes: string[] } {
  const reason = unsupportedReason(option);
  if (reason) throw new HostCallError('invalid_input', `This entry cannot be installed: ${reason}`);
  const notes: string[] = [];
  const missing = missingFields(optionFields(option), values);
  const pairs = (list: ReturnType<typeof pairInputs>) =>
    list.flatMap((pair) => {
      const value = pair.resolve(values);
      return value === '' && !pair.required ? [] : [{ key: pair.key, value, secret: pair.secret }];
    });

  if (option.type === 'remote') {
    const url = expandInput({ value: option.remote.url, variables: option.remote.variables }, 'url', 'URL').resolve(values);
    const server = parse({ name, transport: 'http', url, headers: pairs(pairInputs(option.remote.headers, 'header')) }, missing);
    return { server, missing, notes };
  }

  const { pkg } = option;
  const env = pairs(pairInputs(pkg.environmentVariables, 'env'));
  const runtime = argumentInputs(pkg.runtimeArguments, 'runtime');
  const packageArgs = argumentInputs(pkg.packageArguments, 'package');
  if ([...runtime, ...packageArgs].some((arg) => arg.secret)) {
    notes.push('A secret value is passed on the command line, where Patchbay cannot keep it sealed.');
  }
  if ([...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])].some((arg) => arg.isRepeated)) {
    notes.push('Arguments that may repeat are given once; add more with Edit after installing.');
  }
  const runtimeTokens = runtime.flatMap((arg) => arg.tokens(values));
  const packageTokens = packageArgs.flatMap((arg) => arg.tokens(values));
  const { command } = RUNNERS[pkg.registryType];
  const version = pkg.version;
  let args: string[];
  if (pkg.registryType === 'npm')
    args = ['-y', ...runtimeTokens, version ? `${pkg.identifier}@${version}` : pkg.identifier, ...packageTokens];
  else if (pkg.registryType === 'pypi')
    args = [...runtimeTokens, version ? `${pkg.identifier}==${version}` : pkg.identifier, ...packageTokens];
  else {
    const tagged = /[:@][^/]*$/.test(pkg.identifier) || !version ? pkg.identifier : `${pkg.identifier}:${version}`;
    args = ['run', '-i', '--rm', ...runtimeTokens, ...env.flatMap((pair) => ['-e', pair.key]), tagged, ...packageTokens];
  }
  if (pkg.runtimeHint && pkg.runtimeHint !== command)
    notes.push(`The entry suggests ${pkg.runtimeHint}; Patchbay runs it with ${command}.`);
  if (!version) notes.push('The entry names no version: the newest is fetched whenever it starts.');
  const usual = DEFAULT_PACKAGE_REGISTRIES[pkg.registryType];
  if (pkg.registryBaseUrl && usual && pkg.registryBaseUrl.replace(/\/+$/, '') !== usual) {
    notes.push(`The entry names the package registry ${pkg.registryBaseUrl}; ${command} uses the one your own configuration names.`);
  }
  return { server: parse({ name, transport: 'stdio', command, args, env }, missing), missing, notes };
}

/** The server as `addServer` validates it; field problems other than what is still missing are the entry's fault. */
function parse(candidate: Record<string, unknown>, missing: string[]): ServerInputParsed {
  const parsed = ServerInputSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  // While required values are missing, a URL template may not be a URL yet: the preview shows it as it is.
  if (missing.length > 0) return { ...ServerInputSchema.parse({ name: 'x', command: 'x' }), ...candidate } as ServerInputParsed;
  throw new HostCallError(
    'invalid_input',
    `This entry cannot be installed: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
  );
}
