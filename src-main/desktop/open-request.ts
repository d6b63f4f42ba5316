/**
 * What the operating system asks Patchbay to open — a `.mcpb` bundle or a `patchbay://install?{json}`
 * link, from the command line of the first launch, a second launch, or macOS's open-file/open-url —
 * turned into a checked `OpenRequest`. Pure (the file check is passed in): no electron, no side effects.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BUNDLE_EXTENSION, MAX_LINK_CHARS, PROTOCOL_SCHEME, type OpenRequest, type OpenRequestSource } from '@contract';
import { parseInstallLink } from '../core/install/install-link';

export { parseInstallLink };

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
