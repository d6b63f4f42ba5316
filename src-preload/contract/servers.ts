import { z } from 'zod';
import { method } from './method';

export const SERVER_STATUSES = ['stopped', 'starting', 'ready', 'error', 'crashed'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

/** POSIX-portable environment variable names (also what Windows accepts without quoting). */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One environment variable as the form sends it. A secret sent without `value` keeps its stored value. */
export const EnvVarInputSchema = z.object({
  key: z.string().trim().regex(ENV_KEY_PATTERN, 'Use letters, digits and _ only, not starting with a digit'),
  value: z.string().max(32_768).optional(),
  secret: z.boolean().default(false),
});
export type EnvVarInput = z.input<typeof EnvVarInputSchema>;

export const PRESET_IDS = ['everything', 'filesystem', 'memory'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

/** A stdio server as the user configures it (add and edit take the same shape). */
export const ServerInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100, 'At most 100 characters'),
  command: z.string().trim().min(1, 'Command is required').max(4096),
  args: z.array(z.string().max(32_768)).max(500).default([]),
  env: z.array(EnvVarInputSchema).max(500).default([]),
  /** Working directory; empty means the user's home directory. */
  cwd: z.string().trim().max(4096).default(''),
  enabled: z.boolean().default(true),
  initTimeoutMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
  requestTimeoutMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
  autoRestart: z.boolean().default(true),
});
export type ServerInput = z.input<typeof ServerInputSchema>;
export type ServerInputParsed = z.output<typeof ServerInputSchema>;

/** An environment variable as the renderer sees it: a secret's value never leaves the host. */
export interface EnvVarView {
  key: string;
  secret: boolean;
  /** Present for plain variables only. */
  value?: string;
}

/** A stored server configuration, safe to show. */
export interface ServerConfigView {
  id: string;
  name: string;
  command: string;
  args: string[];
  env: EnvVarView[];
  cwd: string;
  enabled: boolean;
  initTimeoutMs: number;
  requestTimeoutMs: number;
  autoRestart: boolean;
  preset?: PresetId;
  createdAt: string;
}

/** What a running (or stopped) server is doing, as honestly as the host knows it. */
export interface ServerRuntime {
  status: ServerStatus;
  /** Why it is in this status (error message, exit description, "Stopped by you"…). */
  reason?: string;
  /** A finer note while starting, e.g. "installing…" when npx is fetching the package. */
  detail?: string;
  /** ISO time the status began. */
  since: string;
  pid?: number;
  exit?: { code: number | null; signal: string | null };
  serverInfo?: { name: string; version: string; title?: string };
  protocolVersion?: string;
  era?: 'legacy' | 'modern';
  /** Top-level capability names the server declared (tools, resources, prompts, logging…). */
  capabilities?: string[];
  counts?: { tools: number; resources: number; prompts: number };
  /** The last stderr lines, for Error / Crashed. */
  lastStderr?: string[];
  /** Automatic restart in progress: which attempt of how many. */
  restart?: { attempt: number; of: number; at: string };
}

export interface ServerView {
  config: ServerConfigView;
  runtime: ServerRuntime;
}

export const ServerIdSchema = z.object({ id: z.string().min(1).max(100) });

/** What an import would do with each entry of a pasted config file. */
export interface ImportPreviewEntry {
  name: string;
  action: 'import' | 'skip';
  /** Why it is skipped (duplicate, unsupported transport…), or for an import what is left to do. */
  reason?: string;
  /** The server as it would be added (for `import`). */
  server?: ServerInputParsed;
}

export interface ImportPreview {
  format: 'claude-desktop' | 'cursor' | 'vscode' | 'unknown';
  entries: ImportPreviewEntry[];
}

export interface ImportResult {
  imported: ServerView[];
  /** What is left to do for imported servers (e.g. "set GITHUB_TOKEN before enabling"). */
  notes: { name: string; note: string }[];
  skipped: { name: string; reason: string }[];
}

/** Largest config file an import accepts. */
export const MAX_IMPORT_CHARS = 512 * 1024;

const UpdateServerSchema = z.object({ id: z.string().min(1).max(100), server: ServerInputSchema });
const SetServerEnabledSchema = z.object({ id: z.string().min(1).max(100), enabled: z.boolean() });
const AddPresetSchema = z.object({ preset: z.enum(PRESET_IDS) });
const ImportTextSchema = z.object({ text: z.string().max(MAX_IMPORT_CHARS) });

export const serverMethods = {
  /** Adds a server (starting it when enabled); field errors come back as invalid_input with paths. */
  addServer: method<typeof ServerInputSchema, ServerView>(ServerInputSchema),
  /** Replaces a server's configuration; a running server restarts with it. */
  updateServer: method<typeof UpdateServerSchema, ServerView>(UpdateServerSchema),
  /** Stops the server (and everything it spawned), then deletes its configuration. */
  removeServer: method<typeof ServerIdSchema, void>(ServerIdSchema),
  startServer: method<typeof ServerIdSchema, ServerView>(ServerIdSchema),
  stopServer: method<typeof ServerIdSchema, ServerView>(ServerIdSchema),
  restartServer: method<typeof ServerIdSchema, ServerView>(ServerIdSchema),
  setServerEnabled: method<typeof SetServerEnabledSchema, ServerView>(SetServerEnabledSchema),
  /** One-click demo servers shipped with the app. */
  addPresetServer: method<typeof AddPresetSchema, ServerView>(AddPresetSchema),
  /** Parses a pasted claude_desktop_config.json / Cursor / VS Code mcp.json and says what would happen. */
  previewImport: method<typeof ImportTextSchema, ImportPreview>(ImportTextSchema),
  /** Imports the entries a preview marked `import` (re-checked against the current servers). */
  applyImport: method<typeof ImportTextSchema, ImportResult>(ImportTextSchema),
};

export interface ServerEvents {
  /** A server was added, or its configuration or runtime changed. */
  serverUpdated: ServerView;
  serverRemoved: { id: string };
}
