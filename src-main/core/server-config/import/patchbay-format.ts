/**
 * Patchbay's own export of server configurations (Settings › Export servers), and how restoring one
 * reads it back through Import servers. Versioned; secrets are never in it: each secret is listed by
 * name with `"toBeFilled": true`, and a server restored with one comes back disabled, waiting for it.
 * Paths inside the data directory are written as `${patchbayData}` so a restore into another data
 * directory points at its own.
 */
import { z } from 'zod';
import { PRESET_IDS, SERVER_TRANSPORTS, ServerInputSchema, type ImportPreviewEntry } from '@contract';

export const PATCHBAY_EXPORT_VERSION = 1;
/** Stands for the data directory in exported paths. */
export const DATA_DIR_VARIABLE = '${patchbayData}';

const PairSchema = z.union([
  z.strictObject({ key: z.string().max(200), value: z.string().max(32_768), secret: z.literal(false).optional() }),
  z.strictObject({ key: z.string().max(200), secret: z.literal(true), toBeFilled: z.literal(true) }),
]);

export const ExportedServerSchema = z.strictObject({
  name: z.string().max(200),
  transport: z.enum(SERVER_TRANSPORTS),
  command: z.string().max(4_096).default(''),
  args: z.array(z.string().max(32_768)).max(500).default([]),
  env: z.array(PairSchema).max(500).default([]),
  cwd: z.string().max(4_096).default(''),
  url: z.string().max(4_096).default(''),
  headers: z.array(PairSchema).max(100).default([]),
  oauthClientId: z.string().max(2_000).default(''),
  /** A client secret existed (it is not exported). */
  oauthClientSecret: z.strictObject({ toBeFilled: z.literal(true) }).optional(),
  enabled: z.boolean().default(true),
  initTimeoutMs: z.number().int().optional(),
  requestTimeoutMs: z.number().int().optional(),
  autoRestart: z.boolean().optional(),
  preset: z.enum(PRESET_IDS).optional(),
  bundle: z.strictObject({ id: z.string().max(100), version: z.string().max(255) }).optional(),
});
export type ExportedServer = z.input<typeof ExportedServerSchema>;

export const PatchbayExportSchema = z.object({
  patchbay: z.object({
    format: z.literal('servers'),
    version: z.number().int(),
    exportedAt: z.string().optional(),
    app: z.string().optional(),
  }),
  servers: z.array(z.unknown()).max(1_000),
});

export interface PatchbayRestoreContext {
  dataDir: string;
  /** Whether a bundle is installed here and free for a server to use. */
  bundleAvailable(id: string): boolean;
}

/** One exported server as an import entry: added as it was, disabled with a note when secrets are to be filled. */
export function restoreEntry(raw: unknown, context: PatchbayRestoreContext): Omit<ImportPreviewEntry, 'name'> & { name?: string } {
  const parsed = ExportedServerSchema.safeParse(raw);
  const rawName = typeof (raw as { name?: unknown } | null)?.name === 'string' ? String((raw as { name: string }).name) : undefined;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      name: rawName,
      action: 'skip',
      reason: `Not a server of a Patchbay export (${issue.path.join('.') || 'entry'}: ${issue.message})`,
    };
  }
  const entry = parsed.data;
  if (entry.bundle && !context.bundleAvailable(entry.bundle.id)) {
    return {
      name: entry.name,
      action: 'skip',
      reason: `Runs the bundle ${entry.bundle.id}, which is not installed here: install it with Install bundle (a full backup includes bundles)`,
    };
  }
  const expand = (text: string) => text.split(DATA_DIR_VARIABLE).join(context.dataDir);
  const toFill: string[] = [];
  const pairs = (list: typeof entry.env) =>
    list.map((pair) => {
      if (pair.secret) {
        toFill.push(pair.key);
        return { key: pair.key, secret: true };
      }
      return { key: pair.key, value: expand(pair.value), secret: false };
    });
  if (entry.oauthClientSecret) toFill.push('the OAuth client secret');
  const { oauthClientSecret: _secret, preset: _preset, bundle: _bundle, ...fields } = entry;
  const candidate = {
    ...fields,
    command: expand(entry.command),
    args: entry.args.map(expand),
    cwd: expand(entry.cwd),
    env: pairs(entry.env),
    headers: pairs(entry.headers),
    enabled: entry.enabled && toFill.length === 0,
  };
  const server = ServerInputSchema.safeParse(candidate);
  if (!server.success) return { name: entry.name, action: 'skip', reason: server.error.issues.map((issue) => issue.message).join('; ') };
  return {
    name: entry.name,
    action: 'import',
    server: server.data,
    ...(toFill.length > 0 ? { reason: `Restored disabled: set ${toFill.join(', ')} before enabling (secrets are never exported)` } : {}),
    ...(entry.preset ? { preset: entry.preset } : {}),
    ...(entry.bundle ? { bundleId: entry.bundle.id } : {}),
  };
}
