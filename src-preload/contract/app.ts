import { z } from 'zod';
import { method, NoInput } from './method';

/**
 * The app itself, as opposed to its servers: what the operating system asked Patchbay to open (a
 * `.mcpb` bundle, a `patchbay://` link), the updater's state, and a window that crashed and was
 * reloaded. The host only hands these over and shows them; nothing is installed or started from a
 * link or file by itself.
 */

/** The URL scheme Patchbay registers with the operating system. */
export const PROTOCOL_SCHEME = 'patchbay';
/** The file type Patchbay opens (MCP bundles). */
export const BUNDLE_EXTENSION = '.mcpb';
/** Longest `patchbay://` link accepted: a server definition, not a payload. */
export const MAX_LINK_CHARS = 16_384;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A `name: value` object of a link (`env`, `headers`), bounded and with valid names. */
const stringMap = (namePattern: RegExp, noun: string) =>
  z.record(z.string(), z.string().max(8_000)).superRefine((value, ctx) => {
    const names = Object.keys(value);
    if (names.length > 100) ctx.addIssue({ code: 'custom', message: `at most 100 ${noun}s` });
    for (const name of names) {
      if (!namePattern.test(name) || name.length > 200) ctx.addIssue({ code: 'custom', path: [name], message: `not a valid ${noun} name` });
    }
  });

/** VS Code's `inputs`: values the user is asked for at install time (`${input:id}` in env or headers). */
const LinkInputSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'input ids are letters, digits, ".", "_" or "-"'),
  type: z.literal('promptString'),
  description: z.string().max(500).optional(),
  password: z.boolean().optional(),
  default: z.string().max(8_000).optional(),
});

const LOOPBACK_HTTP = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?(?:[/?#]|$)/i;

/** http(s) only; plain http only to this computer (a server the user runs locally). */
const serverUrl = z
  .url({ protocol: /^https?$/ })
  .refine((raw) => /^https:/i.test(raw) || LOOPBACK_HTTP.test(raw), 'must be https (http only for 127.0.0.1 or localhost)');

/**
 * The server a `patchbay://install?{json}` link describes, shaped after VS Code's install links
 * (`vscode:mcp/install?{json}`): `name` plus a local server (`command`, `args`, `env`, `cwd`) or a
 * remote one (`type` "http" or "sse", `url`, `headers`), and optional `inputs`. Strict: an unknown
 * field is refused rather than ignored, so a link never means more than Patchbay shows.
 */
export const McpInstallLinkSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'name is required').max(100),
    type: z.enum(['stdio', 'http', 'sse']).optional(),
    command: z.string().trim().min(1).max(1_000).optional(),
    args: z.array(z.string().max(4_000)).max(200).optional(),
    env: stringMap(ENV_NAME, 'environment variable').optional(),
    cwd: z.string().max(1_000).optional(),
    url: serverUrl.optional(),
    headers: stringMap(HEADER_NAME, 'header').optional(),
    inputs: z.array(LinkInputSchema).max(50).optional(),
  })
  .superRefine((link, ctx) => {
    // As VS Code decides: an explicit type, else a command means local and a url alone remote.
    const remote =
      link.type === 'http' || link.type === 'sse' || (link.type === undefined && link.command === undefined && link.url !== undefined);
    const misplaced = remote ? (['command', 'args', 'env', 'cwd'] as const) : (['url', 'headers'] as const);
    for (const key of misplaced) {
      if (link[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `does not belong to a ${remote ? 'remote' : 'local'} server` });
    }
    if (remote && link.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'a remote server needs a url' });
    if (!remote && link.command === undefined)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'a local server needs a command (or a remote one a url)' });
  });
export type McpInstallLink = z.infer<typeof McpInstallLinkSchema>;

/** How the request reached Patchbay: its own command line, a second launch, or macOS's open events. */
export type OpenRequestSource = 'launch' | 'second-instance' | 'open-file' | 'open-url';

/**
 * Something the operating system asked Patchbay to open, checked but not acted on: the renderer
 * shows it and the user decides. `rejected` carries what was asked and why Patchbay cannot use it.
 */
export type OpenRequest = { id: string; receivedAt: string; source: OpenRequestSource } & (
  | { kind: 'install-bundle'; path: string }
  | { kind: 'install-link'; link: string; server: McpInstallLink }
  | { kind: 'rejected'; input: string; reason: string }
);

/** Most open requests kept waiting; older ones are dropped first (a flood of links must not grow memory). */
export const MAX_PENDING_OPEN_REQUESTS = 20;

/**
 * The updater, as the renderer shows it. `unsupported`: this build cannot update itself (web mode, a
 * development build, no feed). `off`: the user has not turned updates on.
 */
export type UpdateState =
  | { status: 'unsupported'; reason: string }
  | { status: 'off' }
  | { status: 'idle'; lastCheckedAt?: string }
  | { status: 'checking' }
  | { status: 'up-to-date'; checkedAt: string }
  | { status: 'downloading'; version: string; percent: number }
  | { status: 'ready'; version: string; installOnQuit: boolean }
  | { status: 'error'; message: string; at: string };

/** A renderer that crashed and was reloaded; the servers kept running in the host. */
export interface WindowRecovery {
  at: string;
  /** Chromium's reason (`crashed`, `oom`, `killed`…). */
  reason: string;
  exitCode: number;
}

/** The app's part of the host snapshot. */
export interface AppSnapshot {
  /** Requests not dismissed yet, oldest first. */
  openRequests: OpenRequest[];
  update: UpdateState;
  windowRecovery: WindowRecovery | null;
}

const IdSchema = z.object({ id: z.string().min(1).max(100) });
const InstallUpdateSchema = z.object({ when: z.enum(['now', 'on-quit']) });

export const appMethods = {
  /** Removes an open request from the pending list (the user read the notice, or handled it). */
  dismissOpenRequest: method<typeof IdSchema, void>(IdSchema),
  /** Checks the update feed now; resolves with the state the check started in. */
  checkForUpdates: method<typeof NoInput, UpdateState>(NoInput),
  /** The user's consent to install a downloaded update: restart now, or when Patchbay quits. */
  installUpdate: method<typeof InstallUpdateSchema, UpdateState>(InstallUpdateSchema),
  /** Forgets the "the window crashed and was reloaded" notice. */
  dismissWindowRecovery: method<typeof NoInput, void>(NoInput),
};

/** The app's pages, as the native menu and its shortcuts name them. */
export const APP_PAGES = ['chat', 'servers', 'roots', 'logs', 'settings'] as const;
export type AppPage = (typeof APP_PAGES)[number];

/** A native menu item the renderer carries out (the menu lives in the main process, the pages in the renderer). */
export type MenuCommand = { command: 'navigate'; page: AppPage };

export interface AppEvents {
  openRequestReceived: OpenRequest;
  openRequestDismissed: { id: string };
  updateStateChanged: UpdateState;
  windowRecoveryChanged: WindowRecovery | null;
  /** Transient: a menu item or its shortcut was used (never part of the snapshot). */
  menuCommand: MenuCommand;
}

/** Where updates come from: the feed this build was made with, a GitHub repository's releases, or a generic URL. */
export type UpdateFeed =
  { provider: 'built-in' } | { provider: 'github'; owner: string; repo: string } | { provider: 'generic'; url: string };

const GITHUB_REPO = /^([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})$/;
const GITHUB_URL = /^https:\/\/github\.com\/([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/;

/**
 * Reads the update-feed setting: empty for the built-in feed, `owner/repo` or a github.com repository
 * URL for its GitHub releases, any other https URL (http for this computer) for a generic feed.
 * Returns undefined for anything else.
 */
export function parseUpdateFeed(setting: string): UpdateFeed | undefined {
  const text = setting.trim();
  if (text === '') return { provider: 'built-in' };
  const repo = GITHUB_REPO.exec(text) ?? GITHUB_URL.exec(text);
  if (repo) return { provider: 'github', owner: repo[1], repo: repo[2] };
  return serverUrl.safeParse(text).success ? { provider: 'generic', url: text } : undefined;
}

/** The update-feed setting as stored: one of the forms `parseUpdateFeed` reads. */
export const UpdateFeedSettingSchema = z
  .string()
  .max(2_000)
  .refine((value) => parseUpdateFeed(value) !== undefined, 'use owner/repo for GitHub releases, or an https URL for a generic feed');
