import { z } from 'zod';
import type { LaunchProblem, ServerDiagnosis } from './launch-diagnosis';
import { ByIdSchema, IdString, method } from './method';
import { SandboxPolicySchema, type SandboxPolicy, type SandboxRuntime } from './sandbox';

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

/** How Patchbay reaches a server: a local subprocess, or a remote URL (Streamable HTTP, falling back to HTTP+SSE). */
export const SERVER_TRANSPORTS = ['stdio', 'http'] as const;
export type ServerTransportKind = (typeof SERVER_TRANSPORTS)[number];

/** HTTP header names (RFC 9110 token characters). */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers Patchbay sets itself on every request to a remote server; a static header may not replace them. */
export const RESERVED_HEADER_NAMES = [
  'mcp-session-id',
  'mcp-protocol-version',
  'content-type',
  'accept',
  'host',
  'content-length',
  'last-event-id',
];

/** One static HTTP header of a remote server (an API key, say). A secret sent without `value` keeps its stored value. */
export const HeaderInputSchema = z.object({
  key: z
    .string()
    .trim()
    .regex(HEADER_NAME_PATTERN, 'Use a valid header name (letters, digits, -)')
    .refine((key) => !RESERVED_HEADER_NAMES.includes(key.toLowerCase()), 'Patchbay sets this header itself'),
  value: z
    .string()
    .max(8_192)
    .refine((value) => !/[\r\n\0]/.test(value), 'A header value cannot contain line breaks')
    .optional(),
  secret: z.boolean().default(false),
});
export type HeaderInput = z.input<typeof HeaderInputSchema>;

/**
 * How Patchbay signs in to a remote server that wants OAuth: `browser` — as you, in your browser (an
 * authorization code with PKCE); `application` — as an application, with the client credentials
 * grant (no browser ever); `organization` — as you, through your organisation's identity provider
 * (an ID token exchanged for an identity assertion grant, RFC 8693 + RFC 7523; no browser either).
 */
export const SIGN_IN_MODES = ['browser', 'application', 'organization'] as const;
export type SignInMode = (typeof SIGN_IN_MODES)[number];

/**
 * How an application gets its token: the client credentials grant with a client secret or with a JWT
 * signed with its private key, or — workload identity (SEP-1933) — the JWT bearer grant (RFC 7523) with
 * the identity token its platform issues the workload (a Kubernetes service account, a CI job…).
 */
export const CLIENT_AUTH_KINDS = ['client_secret', 'private_key_jwt', 'workload_jwt'] as const;
export type ClientAuthKind = (typeof CLIENT_AUTH_KINDS)[number];

/**
 * True for an http(s) URL with a host and no spaces (what a remote server's address must look like).
 * A pattern, not `new URL`, because the contract is compiled without DOM or Node typings; the host
 * parses the URL for real before using it.
 */
export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(text);
}

/** A server as the user configures it (add and edit take the same shape): a command, or a URL. */
export const ServerInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(100, 'At most 100 characters'),
    transport: z.enum(SERVER_TRANSPORTS).default('stdio'),
    /** stdio: the program to run. */
    command: z.string().trim().max(4096).default(''),
    args: z.array(z.string().max(32_768)).max(500).default([]),
    env: z.array(EnvVarInputSchema).max(500).default([]),
    /** Working directory; empty means the user's home directory. */
    cwd: z.string().trim().max(4096).default(''),
    /** http: the server's MCP endpoint (or, for an old HTTP+SSE server, its SSE URL). */
    url: z.string().trim().max(4096).default(''),
    /** http: static headers sent with every request (values may be secret). */
    headers: z.array(HeaderInputSchema).max(100).default([]),
    /** http: a client ID registered in advance with the server's OAuth authorization server (empty: register dynamically). */
    oauthClientId: z.string().trim().max(2_000).default(''),
    /** http: that client's secret, if it has one. Write-only: sent without it, the stored one is kept. */
    oauthClientSecret: z.string().max(4_096).optional(),
    /** http: how Patchbay signs in when the server wants OAuth (see `SIGN_IN_MODES`). */
    signInMode: z.enum(SIGN_IN_MODES).default('browser'),
    /** http, `application`: how the client authenticates (its secret, or a JWT signed with its private key). */
    oauthClientAuth: z.enum(CLIENT_AUTH_KINDS).default('client_secret'),
    /** http, `application` with `private_key_jwt`: the PEM private key. Write-only, like the secret. */
    oauthPrivateKey: z.string().max(16_384).optional(),
    /** http, `application` with `workload_jwt`: a command that prints the workload's current identity token (a JWT). */
    oauthAssertionCommand: z.string().trim().max(4_096).default(''),
    /**
     * http, `application` / `organization`: the authorization server (issuer URL) the credentials
     * belong to; they are sent nowhere else. Empty: whichever the server's metadata names.
     */
    oauthIssuer: z.string().trim().max(2_000).default(''),
    /** http, `organization`: the identity provider's issuer URL (its token endpoint is discovered there). */
    idpIssuer: z.string().trim().max(2_000).default(''),
    /** http, `organization`: the identity provider's token endpoint, when discovery cannot find it ('' = discover). */
    idpTokenEndpoint: z.string().trim().max(2_000).default(''),
    /** http, `organization`: Patchbay's client ID at the identity provider. */
    idpClientId: z.string().trim().max(2_000).default(''),
    /** http, `organization`: that client's secret, if it has one. Write-only. */
    idpClientSecret: z.string().max(4_096).optional(),
    /** http, `organization`: a command that prints your current ID token from the identity provider. */
    idpIdTokenCommand: z.string().trim().max(4_096).default(''),
    enabled: z.boolean().default(true),
    initTimeoutMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
    requestTimeoutMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
    autoRestart: z.boolean().default(true),
    /**
     * stdio: the sandbox it runs in. Absent: a new server gets the default (sandboxed, network allowed,
     * where this machine can run a sandbox; see `defaultSandbox`), an edited one keeps its own.
     */
    sandbox: SandboxPolicySchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.transport === 'stdio' && input.command === '')
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'Command is required' });
    if (input.transport === 'stdio' && input.sandbox?.enabled && input.sandbox.network === 'hosts' && input.sandbox.hosts.length === 0)
      ctx.addIssue({ code: 'custom', path: ['sandbox', 'hosts'], message: 'List at least one host, or choose Blocked' });
    if (input.transport === 'http') {
      if (input.url === '') ctx.addIssue({ code: 'custom', path: ['url'], message: 'URL is required' });
      else if (!isHttpUrl(input.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Enter an http:// or https:// URL' });
      checkSignInFields(input, (path, message) => ctx.addIssue({ code: 'custom', path: [path], message }));
    }
  });

/** What each sign-in mode needs (stored secrets are checked in the host, which can see them). */
function checkSignInFields(
  input: {
    signInMode: SignInMode;
    oauthClientId: string;
    oauthClientAuth: ClientAuthKind;
    oauthAssertionCommand: string;
    oauthIssuer: string;
    idpIssuer: string;
    idpTokenEndpoint: string;
    idpClientId: string;
    idpIdTokenCommand: string;
  },
  issue: (path: string, message: string) => void,
): void {
  if (input.oauthIssuer !== '' && !isHttpUrl(input.oauthIssuer)) issue('oauthIssuer', 'Enter an http:// or https:// URL');
  if (input.signInMode === 'browser') return;
  if (input.oauthClientId === '') issue('oauthClientId', 'A client ID is required for this kind of sign-in');
  if (input.signInMode === 'application' && input.oauthClientAuth === 'workload_jwt' && input.oauthAssertionCommand === '')
    issue('oauthAssertionCommand', "Enter the command that prints the workload's identity token");
  if (input.signInMode !== 'organization') return;
  if (input.idpIssuer === '') issue('idpIssuer', "Enter your identity provider's URL");
  else if (!isHttpUrl(input.idpIssuer)) issue('idpIssuer', 'Enter an http:// or https:// URL');
  if (input.idpTokenEndpoint !== '' && !isHttpUrl(input.idpTokenEndpoint)) issue('idpTokenEndpoint', 'Enter an http:// or https:// URL');
  if (input.idpClientId === '') issue('idpClientId', "Enter Patchbay's client ID at your identity provider");
  if (input.idpIdTokenCommand === '') issue('idpIdTokenCommand', 'Enter the command that prints your ID token');
}
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
  transport: ServerTransportKind;
  command: string;
  args: string[];
  env: EnvVarView[];
  cwd: string;
  url: string;
  /** Static headers; a secret one's value never leaves the host. */
  headers: EnvVarView[];
  /** A pre-registered OAuth client ID ('' when none). */
  oauthClientId: string;
  /** Whether a client secret is stored for it (its value never leaves the host). */
  oauthClientSecretSet: boolean;
  signInMode: SignInMode;
  oauthClientAuth: ClientAuthKind;
  /** Whether a private key is stored (application sign-in with a signed JWT); never the key itself. */
  oauthPrivateKeySet: boolean;
  /** Application sign-in with workload identity: the command that prints the workload's token. */
  oauthAssertionCommand: string;
  oauthIssuer: string;
  idpIssuer: string;
  idpTokenEndpoint: string;
  idpClientId: string;
  /** Whether a client secret at the identity provider is stored. */
  idpClientSecretSet: boolean;
  idpIdTokenCommand: string;
  enabled: boolean;
  initTimeoutMs: number;
  requestTimeoutMs: number;
  autoRestart: boolean;
  /** Its sandbox (remote servers, and servers from before sandboxes: off). */
  sandbox?: SandboxPolicy;
  preset?: PresetId;
  /** The installed bundle (`bundles/<id>/`) this server runs, when it came from one. */
  bundleId?: string;
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
  /** The server can follow resources (`resources.subscribe`): Subscribe is offered. */
  resourceSubscriptions?: boolean;
  counts?: { tools: number; resources: number; prompts: number };
  /** The last stderr lines, for Error / Crashed. */
  lastStderr?: string[];
  /** Automatic restart in progress: which attempt of how many. */
  restart?: { attempt: number; of: number; at: string };
  /** Remote servers: which HTTP transport is in use and the session, when there is one. */
  remote?: RemoteRuntime;
  /** Remote servers that use OAuth: whether the user is signed in. */
  auth?: AuthView;
  /** Error: the program could not be launched at all — what was looked for, where, and what to do. */
  launch?: LaunchProblem;
  /** Running in a sandbox: what it sees, in words ("Sandboxed: sees 2 shared folders; network blocked"). */
  sandbox?: SandboxRuntime;
}

/** How a remote server is being reached. */
export interface RemoteRuntime {
  /** `streamable-http`, or the legacy `sse` transport of old servers. */
  transport: 'streamable-http' | 'sse';
  /** The `Mcp-Session-Id` of a 2025-era session (none for stateless 2026-era servers). */
  sessionId?: string;
}

/** OAuth state of a remote server, as the server card shows it. */
export interface AuthView {
  /**
   * `signed-out`: the server wants a sign-in (Sign in); `signing-in`: the browser is open;
   * `signed-in`: tokens are stored (Signed in as …); `expired`: the tokens stopped working and could
   * not be refreshed ("needs sign-in again").
   */
  status: 'signed-out' | 'signing-in' | 'signed-in' | 'expired';
  /** Who, when the tokens say (an email or user name), else the authorization server's host. */
  account?: string;
  /** The authorization server (OAuth issuer). */
  issuer?: string;
  /** Why the last sign-in failed, when it did. */
  error?: string;
  /**
   * The server has no protected-resource metadata and signs in the 2025-03-26 way (authorization
   * server at its own origin, default endpoints when it publishes no metadata).
   */
  legacy?: boolean;
  /** How the server signs in when not in the browser: as an application, or through your organisation. */
  mode?: 'application' | 'organization';
  /**
   * Signed in: how the access token is presented. `DPoP`: bound to a key only Patchbay holds (RFC 9449),
   * where the authorization server offers it; `Bearer`: anyone holding the token could use it.
   */
  tokenType?: 'DPoP' | 'Bearer';
}

export interface ServerView {
  config: ServerConfigView;
  runtime: ServerRuntime;
}

/** What an import would do with each entry of a pasted config file. */
export interface ImportPreviewEntry {
  name: string;
  action: 'import' | 'skip';
  /** Why it is skipped (duplicate, unsupported transport…), or for an import what is left to do. */
  reason?: string;
  /** The server as it would be added (for `import`). */
  server?: ServerInputParsed;
  /** Restoring a Patchbay export: the entry is one of the quick-add servers, added as such. */
  preset?: PresetId;
  /** Restoring a Patchbay export: the entry runs an installed bundle (`bundles/<id>/`). */
  bundleId?: string;
}

export interface ImportPreview {
  format: 'claude-desktop' | 'cursor' | 'vscode' | 'patchbay' | 'unknown';
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

const UpdateServerSchema = z.object({ id: IdString, server: ServerInputSchema });
const SetServerEnabledSchema = z.object({ id: IdString, enabled: z.boolean() });
/** What `signIn` did: opened the system browser itself, or hands the URL to the page to open in a new tab. */
export interface SignInStart {
  /**
   * The authorization URL (web mode opens it in a new tab; Electron already opened the system
   * browser). Absent for sign-ins without a browser (as an application, through your organisation).
   */
  authorizationUrl?: string;
  openedByHost: boolean;
}

const AddPresetSchema = z.object({ preset: z.enum(PRESET_IDS) });
const ImportTextSchema = z.object({ text: z.string().max(MAX_IMPORT_CHARS) });

export const serverMethods = {
  /** Adds a server (starting it when enabled); field errors come back as invalid_input with paths. */
  addServer: method<typeof ServerInputSchema, ServerView>(ServerInputSchema),
  /** Replaces a server's configuration; a running server restarts with it. */
  updateServer: method<typeof UpdateServerSchema, ServerView>(UpdateServerSchema),
  /** Stops the server (and everything it spawned), then deletes its configuration. */
  removeServer: method<typeof ByIdSchema, void>(ByIdSchema),
  startServer: method<typeof ByIdSchema, ServerView>(ByIdSchema),
  stopServer: method<typeof ByIdSchema, ServerView>(ByIdSchema),
  restartServer: method<typeof ByIdSchema, ServerView>(ByIdSchema),
  setServerEnabled: method<typeof SetServerEnabledSchema, ServerView>(SetServerEnabledSchema),
  /** One-click demo servers shipped with the app. */
  addPresetServer: method<typeof AddPresetSchema, ServerView>(AddPresetSchema),
  /** Parses a pasted claude_desktop_config.json / Cursor / VS Code mcp.json and says what would happen. */
  previewImport: method<typeof ImportTextSchema, ImportPreview>(ImportTextSchema),
  /** Imports the entries a preview marked `import` (re-checked against the current servers). */
  applyImport: method<typeof ImportTextSchema, ImportResult>(ImportTextSchema),
  /**
   * Re-runs a stopped or failed server's launch step by step in a separate process (configuration,
   * working directory, command lookup, spawn, handshake, tool list), reporting each step as it ends
   * (`serverDiagnosis`) and resolving with all of them. The process is stopped afterwards.
   */
  diagnoseServer: method<typeof ByIdSchema, ServerDiagnosis>(ByIdSchema),
};

/** OAuth sign-in of a remote server (the core's OAuth area answers these). */
export const signInMethods = {
  /**
   * Starts an OAuth sign-in for a remote server: discovery, registration, PKCE, and the browser;
   * the loopback redirect completes it and the server connects (watch `serverUpdated`).
   */
  signIn: method<typeof ByIdSchema, SignInStart>(ByIdSchema),
  /** Forgets the server's tokens (the client registration stays) and disconnects it. */
  signOut: method<typeof ByIdSchema, ServerView>(ByIdSchema),
};

export interface ServerEvents {
  /** A server was added, or its configuration or runtime changed. */
  serverUpdated: ServerView;
  serverRemoved: { id: string };
  /** A diagnosis moved on by a step (see `diagnoseServer`). */
  serverDiagnosis: ServerDiagnosis;
}
