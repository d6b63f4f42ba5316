/**
 * What the operating system asks Patchbay to open — a `.mcpb` bundle or a `patchbay://install?{json}`
 * link, from the command line of the first launch, a second launch, or macOS's open-file/open-url —
 * turned into a checked `OpenRequest`. Pure (the file check is passed in): no electron, no side effects.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  BUNDLE_EXTENSION,
  MAX_LINK_CHARS,
  McpInstallLinkSchema,
  PROTOCOL_SCHEME,
  type McpInstallLink,
  type OpenRequest,
  type OpenRequestSource,
} from '../../src-preload/contract';

const SCHEME_PREFIX = new RegExp(`^${PROTOCOL_SCHEME}:`, 'i');
/** Longest command-line argument looked at (a link is bounded anyway; a path is far shorter). */
const MAX_ARG_CHARS = MAX_LINK_CHARS + 1_000;
/** Most targets taken from one launch: the rest is ignored (a runaway script must not flood the window). */
const MAX_TARGETS_PER_LAUNCH = 10;

/** Whether an argument is something Patchbay opens: a `patchbay:` link, a `.mcpb` path or `file://` URL. */
function isOpenTarget(arg: string): boolean {
  return SCHEME_PREFIX.test(arg) || arg.toLowerCase().endsWith(BUNDLE_EXTENSION) || /^file:\/\//i.test(arg);
}

/**
 * The links and bundle paths on a command line. `skip` leading arguments are the executable (and, in
 * a development run, the app's folder); switches (`--…`, Chromium's own included) are never targets,
 * nor is anything else. Relative paths are resolved against the launch's working directory.
 */
export function openTargetsFromArgv(argv: readonly string[], options: { cwd: string; skip: number }): string[] {
  const targets: string[] = [];
  for (const arg of argv.slice(options.skip)) {
    if (targets.length >= MAX_TARGETS_PER_LAUNCH) break;
    if (arg.startsWith('-') || arg.length > MAX_ARG_CHARS || !isOpenTarget(arg)) continue;
    if (SCHEME_PREFIX.test(arg) || /^file:\/\//i.test(arg)) targets.push(arg);
    else targets.push(path.resolve(options.cwd, arg));
  }
  return targets;
}

/** What a second launch hands the first through `requestSingleInstanceLock(additionalData)`. */
export const HandoverSchema = z.object({ patchbayOpen: z.array(z.string().max(MAX_ARG_CHARS)).max(MAX_TARGETS_PER_LAUNCH) });
export type Handover = z.infer<typeof HandoverSchema>;

/** The second launch's side: its own targets, resolved against its own working directory. */
export function handoverFor(argv: readonly string[], options: { cwd: string; skip: number }): Handover {
  return { patchbayOpen: openTargetsFromArgv(argv, options) };
}

/**
 * The first instance's side of `second-instance`: the targets the second launch sent, or — when it
 * sent none we can read (an older version) — those on the argv Electron passes along.
 */
export function targetsFromSecondInstance(argv: readonly string[], cwd: string, additionalData: unknown, skip: number): string[] {
  const handover = HandoverSchema.safeParse(additionalData);
  return handover.success ? handover.data.patchbayOpen : openTargetsFromArgv(argv, { cwd, skip });
}

export interface OpenContext {
  source: OpenRequestSource;
  now: Date;
  /** Whether a path is an existing regular file (the glue passes fs; tests pass their own files). */
  isFile(filePath: string): boolean;
  /** Defaults to a random UUID. */
  id?: string;
}

/** Turns one target into a request: a bundle to install, a server link, or a refusal with its reason. */
export function parseOpenTarget(target: string, context: OpenContext): OpenRequest {
  const base = { id: context.id ?? randomUUID(), receivedAt: context.now.toISOString(), source: context.source };
  const rejected = (reason: string): OpenRequest => ({ ...base, kind: 'rejected', input: target.slice(0, 500), reason });

  if (SCHEME_PREFIX.test(target)) {
    const link = parseInstallLink(target);
    return link.ok ? { ...base, kind: 'install-link', link: target, server: link.server } : rejected(link.reason);
  }
  let filePath = target;
  if (/^file:\/\//i.test(target)) {
    try {
      filePath = fileURLToPath(target);
    } catch {
      return rejected('not a file this computer can open');
    }
  }
  if (!filePath.toLowerCase().endsWith(BUNDLE_EXTENSION)) return rejected(`Patchbay opens MCP bundles (${BUNDLE_EXTENSION} files) only`);
  if (!path.isAbsolute(filePath)) return rejected('the bundle path is not absolute');
  if (!context.isFile(filePath)) return rejected('the bundle file does not exist (or is not a file)');
  return { ...base, kind: 'install-bundle', path: path.normalize(filePath) };
}

/**
 * Reads `patchbay://install?{url-encoded JSON}` — the shape of VS Code's `vscode:mcp/install?{json}`:
 * the JSON names the server and says how to run or reach it (see `McpInstallLinkSchema`). Any other
 * action, a link without a definition, unreadable JSON or a definition that does not validate is
 * refused with a reason a person can act on.
 */
export function parseInstallLink(link: string): { ok: true; server: McpInstallLink } | { ok: false; reason: string } {
  if (link.length > MAX_LINK_CHARS)
    return { ok: false, reason: `the link is longer than ${MAX_LINK_CHARS.toLocaleString('en-US')} characters` };
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { ok: false, reason: 'not a valid link' };
  }
  const action = `${url.host}${url.pathname}`.replace(/^\/+|\/+$/g, '').toLowerCase();
  if (action !== 'install') {
    return {
      ok: false,
      reason: `Patchbay links can only install a server (${PROTOCOL_SCHEME}://install?…); this one asks for "${action.slice(0, 60) || 'nothing'}"`,
    };
  }
  const query = url.search.replace(/^\?/, '');
  if (query === '') return { ok: false, reason: 'the link carries no server definition' };
  let json: unknown;
  try {
    json = JSON.parse(decodeURIComponent(query));
  } catch {
    return { ok: false, reason: "the link's server definition is not valid JSON" };
  }
  const parsed = McpInstallLinkSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    );
    return { ok: false, reason: `the server definition is not valid: ${issues.slice(0, 5).join('; ')}` };
  }
  return { ok: true, server: parsed.data };
}
