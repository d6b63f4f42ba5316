/**
 * A bundle's `user_config` as form fields, and its `mcp_config` with the variables the MCPB spec
 * defines filled in: `${__dirname}` (the bundle's folder), `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`,
 * `${DOWNLOADS}`, `${pathSeparator}` / `${/}`, and `${user_config.<key>}` (a `multiple` value given as
 * a whole argument expands to several). Sensitive values never reach a command line in the database:
 * in an environment variable the whole value is stored sealed; in an argument the placeholder stays
 * and is filled from the sealed setting only when the server starts.
 */
import os from 'node:os';
import path from 'node:path';
import type { InstallField, InstallValues } from '@contract';
import type { BundleManifest, McpConfig } from './bundle-manifest';

/** A setting as stored for an installed bundle: a plain value, or one that is sealed. */
export type StoredSetting = { value: string | number | boolean | string[] } | { sealed: true };

/** The bundle's settings as form fields; stored plain values prefill them, stored secrets are marked kept. */
export function userConfigFields(manifest: BundleManifest, stored: ReadonlyMap<string, StoredSetting> = new Map()): InstallField[] {
  return Object.entries(manifest.user_config ?? {}).map(([key, option]) => {
    const kept = stored.get(key);
    const plain = kept && 'value' in kept ? kept.value : option.sensitive ? undefined : option.default;
    const value = Array.isArray(plain) ? plain.join('\n') : plain;
    return {
      id: key,
      label: option.title,
      ...(option.description ? { description: option.description + (option.multiple ? ' (one per line)' : '') } : {}),
      kind: option.type,
      required: option.required === true,
      secret: option.sensitive === true,
      ...(value !== undefined ? { default: typeof value === 'string' ? expandSystemDirs(value) : value } : {}),
      ...(option.min !== undefined ? { min: option.min } : {}),
      ...(option.max !== undefined ? { max: option.max } : {}),
      ...(kept && 'sealed' in kept ? { stored: true } : {}),
    };
  });
}

/** A value the user gave, as the type the manifest declares; problems are said in the field's words. */
export function userConfigValue(
  field: InstallField,
  multiple: boolean,
  values: InstallValues,
): { value?: string | number | boolean | string[]; problem?: string } {
  const raw = Object.hasOwn(values, field.id) ? values[field.id] : field.default;
  if (raw === undefined || raw === '') return field.required && !field.stored ? { problem: field.label } : {};
  if (field.kind === 'boolean') return { value: raw === true || raw === 'true' };
  if (field.kind === 'number') {
    const number = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isFinite(number)) return { problem: `${field.label} (a number)` };
    if ((field.min !== undefined && number < field.min) || (field.max !== undefined && number > field.max)) {
      return { problem: `${field.label} (from ${field.min ?? '…'} to ${field.max ?? '…'})` };
    }
    return { value: number };
  }
  const text = String(raw);
  return multiple
    ? {
        value: text
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      }
    : { value: text };
}

/** The spec's system directories. */
function systemDirs(): Record<string, string> {
  const home = os.homedir();
  return {
    HOME: home,
    DESKTOP: path.join(home, 'Desktop'),
    DOCUMENTS: path.join(home, 'Documents'),
    DOWNLOADS: path.join(home, 'Downloads'),
    pathSeparator: path.sep,
    '/': path.sep,
  };
}

function expandSystemDirs(text: string): string {
  const dirs = systemDirs();
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => (Object.hasOwn(dirs, name) ? dirs[name] : whole));
}

/** The launch configuration with variables filled in, and what was left or kept as a placeholder. */
export interface FilledConfig {
  command: string;
  args: string[];
  env: { key: string; value: string; secret: boolean }[];
  /** Variables the spec does not define, left as written. */
  unknown: string[];
}

/**
 * Fills `${…}` in the launch configuration. `values` holds every setting with a value; `sensitive`
 * names the settings whose values must stay out of arguments (their `${user_config.x}` stays there).
 */
export function fillConfig(
  config: McpConfig,
  bundleDir: string,
  values: ReadonlyMap<string, string | number | boolean | string[]>,
  sensitive: ReadonlySet<string>,
): FilledConfig {
  const known: Record<string, string> = { ...systemDirs(), __dirname: bundleDir };
  const unknown = new Set<string>();
  const fill = (text: string, keepSensitive: boolean) =>
    text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
      if (Object.hasOwn(known, name)) return known[name];
      if (name.startsWith('user_config.')) {
        const key = name.slice('user_config.'.length);
        if (keepSensitive && sensitive.has(key)) return whole;
        const value = values.get(key);
        if (value === undefined) return '';
        return Array.isArray(value) ? value.join(' ') : String(value);
      }
      unknown.add(whole);
      return whole;
    });
  const args = (config.args ?? []).flatMap((arg) => {
    const whole = /^\$\{user_config\.([^}]+)\}$/.exec(arg);
    if (whole && !sensitive.has(whole[1])) {
      const value = values.get(whole[1]);
      if (Array.isArray(value)) return value;
      // An optional setting left empty drops its argument rather than passing "".
      if (value === undefined) return [];
    }
    return [fill(arg, true)];
  });
  const env = Object.entries(config.env ?? {}).map(([key, value]) => ({
    key,
    value: fill(value, false),
    secret: [...value.matchAll(/\$\{user_config\.([^}]+)\}/g)].some((match) => sensitive.has(match[1])),
  }));
  return { command: fill(config.command, true), args, env, unknown: [...unknown] };
}

/** Fills the sensitive placeholders left in a stored server's arguments, at launch (the values come from the sealed settings). */
export function fillSensitiveArgs(args: readonly string[], values: ReadonlyMap<string, string>): string[] {
  return args.map((arg) =>
    arg.replace(/\$\{user_config\.([^}]+)\}/g, (whole, key: string) => (values.has(key) ? values.get(key)! : whole)),
  );
}
