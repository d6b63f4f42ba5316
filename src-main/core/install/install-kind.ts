import type { InstallField, InstallPlan, InstallSource, InstallValues, ServerInputParsed } from '@contract';

/** A server built from a source and the user's values: what would be stored, and what is still missing. */
export interface BuiltServer {
  /** The server as `addServer` takes it; secrets carry their values (sealed only when stored). */
  server: ServerInputParsed;
  /** Labels of required fields without a value. */
  missing: string[];
  notes: string[];
  /** Installing replaces this server instead of adding one (a newer copy of an installed bundle). */
  replaces?: string;
  /**
   * Runs before the server is stored (a bundle: its files moved into place, its settings saved, so the
   * server finds both when it starts): `undo` if storing the server fails, `finish` once it is stored.
   */
  prepare?: () => Promise<{ undo(): Promise<void>; finish(): Promise<void> }>;
  bundleId?: string;
}

/** One kind of source (registry entry, link, bundle): how to plan an install and build its server. */
export interface InstallKind<Source extends InstallSource = InstallSource> {
  plan(source: Source): Promise<Omit<InstallPlan, 'preview' | 'source'>>;
  build(source: Source, name: string, values: InstallValues): Promise<BuiltServer>;
  /** Forgets what the source held (a bundle's file) once installed. */
  done?(source: Source): Promise<void>;
}

/** A field's value as text: what the user entered, else its default; '' when neither. */
export function fieldText(field: InstallField, values: InstallValues): string {
  const value = Object.hasOwn(values, field.id) ? values[field.id] : field.default;
  if (value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** Labels of required fields left empty (a stored secret counts as filled). */
export function missingFields(fields: readonly InstallField[], values: InstallValues): string[] {
  return fields.filter((field) => field.required && !field.stored && fieldText(field, values).trim() === '').map((field) => field.label);
}
