import { z } from 'zod';

/**
 * A local server's sandbox as configured (network, hosts) and as launched (what it sees, what it ran
 * into). The core's `sandbox/` builds the boundary; see docs/sandbox.md.
 */

/** What a sandboxed server may reach over the network: anything, nothing, or only the listed host names. */
export const SANDBOX_NETWORKS = ['allowed', 'blocked', 'hosts'] as const;
export type SandboxNetwork = (typeof SANDBOX_NETWORKS)[number];

/** A host name (or IP address) a server may connect to, with an optional `:port`; `*.` allows subdomains. */
export const SANDBOX_HOST_PATTERN = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9.-]{0,252})(:[0-9]{1,5})?$/;

/**
 * A local server's sandbox: whether it runs inside one (Linux: bubblewrap) that lets it see only the
 * system, its own install location, the folders shared with it and a private scratch folder; and what
 * network it gets there.
 */
export const SandboxPolicySchema = z.object({
  enabled: z.boolean().default(false),
  network: z.enum(SANDBOX_NETWORKS).default('blocked'),
  hosts: z
    .array(z.string().trim().toLowerCase().regex(SANDBOX_HOST_PATTERN, 'Enter a host name such as api.example.com'))
    .max(100)
    .default([]),
});
export type SandboxPolicy = z.output<typeof SandboxPolicySchema>;

/** A server that was never put in a sandbox (every server from before sandboxes existed). */
export const NO_SANDBOX: SandboxPolicy = { enabled: false, network: 'allowed', hosts: [] };

/**
 * What a new local server gets unless the user chose otherwise (the form, an import, the registry, a
 * bundle, an install link): sandboxed where this machine can run a sandbox, with the network allowed
 * (npx and uvx fetch their package as they start); unsandboxed where it cannot, which the form states.
 */
export function defaultSandbox(supported: boolean): SandboxPolicy {
  return supported ? { enabled: true, network: 'allowed', hosts: [] } : NO_SANDBOX;
}

/** Whether this machine can run servers in a sandbox; when not, the one line that says what to install. */
export type SandboxSupport = { supported: true } | { supported: false; reason: string };

/** A sandboxed server's boundary as it was launched, and what it ran into. */
export interface SandboxRuntime {
  /** One sentence for the Overview. */
  summary: string;
  /** Folders shared with it, as mounted (real paths). */
  folders: string[];
  /** Those of `folders` mounted read-only (shared read-only). */
  readOnlyFolders: string[];
  /** A path the server failed on that lies outside the sandbox (from its stderr), when one was seen. */
  blockedPath?: string;
  /**
   * Its command is a package runner (npx, uvx…) whose registry the sandbox's network cannot reach: the
   * sentence that says so ("npx needs the npm registry (registry.npmjs.org) to start: …"). A failed
   * launch's reason ends with it.
   */
  registryNote?: string;
  /** Paths its arguments or environment name that the sandbox hides or shows only read-only. */
  pathNotes?: SandboxPathNote[];
  /** Everything mounted inside, the system's folders included. */
  mounts?: SandboxMount[];
}

/** A path the launch names (`from`: "argument 2", or a variable's name) that the sandbox hides or shows read-only. */
export interface SandboxPathNote {
  path: string;
  from: string;
  kind: 'hidden' | 'read-only';
  /** The folder Share folder shares for it (itself when it is a folder). */
  folder: string;
}

/** One mount of a sandbox, for the Overview. */
export interface SandboxMount {
  path: string;
  access: 'read-write' | 'read-only';
  /** "shared folder", "its own program", "its scratch folder (HOME, TMPDIR)", "the system". */
  what: string;
}
