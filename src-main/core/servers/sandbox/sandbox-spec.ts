/**
 * What one sandboxed server process may touch, as the launch hands it to the platform's sandbox
 * (Linux: bubblewrap, see bwrap-args.ts). Paths are real (symlinks resolved) and absolute.
 */
export interface SandboxSpec {
  /** The bubblewrap program that builds the sandbox. */
  runner: string;
  /** Readable, never writable: the server's install location, folders shared read-only. */
  readOnly: string[];
  /** Readable and writable: the folders shared with it. */
  readWrite: string[];
  /** Its private scratch folder (HOME and TMPDIR inside), under Patchbay's data directory. */
  scratch: string;
  /** Folders hidden even when inside a shared one (Patchbay's data directory: database, secrets). */
  hidden: string[];
  /** `blocked`: no network at all, loopback included (a network namespace of its own). */
  network: 'allowed' | 'blocked';
  /**
   * "Only these hosts": no network of its own, but socat (at `socat`) relays 127.0.0.1:`port` inside to
   * the host-side filtering proxy listening on `socket` (a unix socket in the scratch folder).
   */
  proxy?: { socket: string; port: number; socat: string };
  /**
   * Hears the spec as launched: with the server's install location added, which only the launch knows
   * (it is found from the resolved program). Whoever reads denials needs it, or the server's own code
   * would look like a place outside the sandbox.
   */
  onLaunched?(full: SandboxSpec): void;
}
