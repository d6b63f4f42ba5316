import { z } from 'zod';
import { IdString, method } from './method';
import type { CommandRisk } from './command-risks';
import type { ServerView } from './servers';

/**
 * Installing a server from somewhere else: an entry of an MCP registry, an MCP bundle (`.mcpb`), or an
 * install link (`patchbay://install?…`, VS Code's `vscode:mcp/install?…`). All three take the same
 * steps: the host makes a plan (what it is, the values it needs as form fields, a first preview), the
 * user fills the fields and sees the exact command line or URL the host would store (recomputed by
 * the host on every change), and only `install` writes anything. Nothing is started unless the user
 * ticked "Start it now".
 */

/** A command line as one would type it, quoting arguments that need it (the one way both sides show a command). */
export function formatCommandLine(command: string, args: readonly string[]): string {
  const quote = (part: string) => (part === '' || /[\s"'\\$`]/.test(part) ? JSON.stringify(part) : part);
  return [command, ...args].map(quote).join(' ');
}

/** Where a server to install comes from. */
export const InstallSourceSchema = z.discriminatedUnion('kind', [
  /** One way (a package or a remote) of one registry entry the host fetched (`RegistryEntry.id`). */
  z.object({ kind: z.literal('registry'), entryId: z.string().min(1).max(600), option: z.number().int().min(0).max(99) }),
  /** An install link as the user pasted it or the operating system handed it over. */
  z.object({ kind: z.literal('link'), link: z.string().min(1).max(20_000) }),
  /** A bundle the host has opened and checked (`openBundle`'s token). */
  z.object({ kind: z.literal('bundle'), token: IdString }),
]);
export type InstallSource = z.infer<typeof InstallSourceSchema>;

/** The kinds of value a field asks for. `directory` and `file` are paths (a picker in the app, a path box in web mode). */
export const INSTALL_FIELD_KINDS = ['string', 'number', 'boolean', 'directory', 'file'] as const;
export type InstallFieldKind = (typeof INSTALL_FIELD_KINDS)[number];

/** One value the user is asked for before installing (an environment variable, an argument, a header, a bundle setting). */
export interface InstallField {
  /** The key `values` uses for it. */
  id: string;
  /** What the form labels it with (a bundle setting's title, a variable's name). */
  label: string;
  description?: string;
  kind: InstallFieldKind;
  required: boolean;
  /** Stored sealed, never shown again, never exported. */
  secret: boolean;
  /** The value the form starts with (never a secret's). */
  default?: string | number | boolean;
  /** When set, the value must be one of these. */
  choices?: string[];
  min?: number;
  max?: number;
  /** A secret that already has a stored value (updating a bundle): left empty, the stored one is kept. */
  stored?: boolean;
  /** A placeholder that shows the expected form of the value. */
  placeholder?: string;
}

/** The values of the fields, by field id. */
export const InstallValuesSchema = z
  .record(z.string().max(200), z.union([z.string().max(32_768), z.number(), z.boolean()]))
  .refine((values) => Object.keys(values).length <= 200, 'at most 200 values');
export type InstallValues = z.infer<typeof InstallValuesSchema>;

/** One environment variable or header of a preview; a secret's value is never shown. */
export interface PreviewPair {
  key: string;
  secret: boolean;
  /** Plain values only. */
  value?: string;
}

/** Exactly what `install` would store, as the host computed it from the same inputs. */
export interface InstallPreview {
  name: string;
  transport: 'stdio' | 'http';
  /** Local servers: the command line, each argument quoted where it needs to be. */
  commandLine?: string;
  /** Remote servers: the URL. */
  url?: string;
  cwd?: string;
  env: PreviewPair[];
  headers: PreviewPair[];
  /** Labels of required fields still empty: `install` refuses while there are any. */
  missing: string[];
  /** Anything the user should know before installing (an unsupported variable, a runtime it needs…). */
  notes: string[];
  /** What the command line could do beyond running the server it names (`commandRisks`), shown before Install. */
  risks: CommandRisk[];
  /** Local servers: whether it will run sandboxed, and how, in one line. */
  sandbox?: string;
}

/** What the source is, in facts the dialog shows above the form. */
export interface InstallAbout {
  title: string;
  /** One-line facts: `Version`, `Publisher`, `Author`, `Signature`, `Tools`… */
  facts: { label: string; value: string }[];
  description?: string;
  /** Problems that do not stop the install but the user should read (a runtime requirement, a deprecation). */
  warnings: string[];
}

/** The start of an install: what it is, what it needs, and the first preview. */
export interface InstallPlan {
  source: InstallSource;
  about: InstallAbout;
  /** The server's name as it would be added (unique among the servers). */
  suggestedName: string;
  fields: InstallField[];
  preview: InstallPreview;
  /** Whether "Start it now" starts ticked: yes for what the user chose inside Patchbay, no for a link from outside. */
  startByDefault: boolean;
  /** Installing replaces this server's configuration (a newer bundle with the same id), keeping its settings. */
  updates?: { serverId: string; name: string };
}

const PlanInstallSchema = z.object({ source: InstallSourceSchema });
const PreviewInstallSchema = z.object({
  source: InstallSourceSchema,
  name: z.string().trim().max(100).default(''),
  values: InstallValuesSchema.default({}),
});
const InstallSchema = PreviewInstallSchema.extend({
  /** Start the server once it is added (otherwise it is added disabled). */
  start: z.boolean().default(false),
  /** The open request this install answers (it is dismissed once the server is added). */
  openRequestId: IdString.optional(),
});

export const installMethods = {
  /** What installing from this source means: facts, the fields to fill, the first preview. */
  planInstall: method<typeof PlanInstallSchema, InstallPlan>(PlanInstallSchema),
  /** The exact configuration `install` would store for these values (nothing is written). */
  previewInstall: method<typeof PreviewInstallSchema, InstallPreview>(PreviewInstallSchema),
  /** Adds (or, for a bundle already installed, updates) the server; starts it only when `start` is true. */
  install: method<typeof InstallSchema, ServerView>(InstallSchema),
};
