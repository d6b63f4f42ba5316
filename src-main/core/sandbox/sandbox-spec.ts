/**
 * What one sandboxed server process may touch, as the launch hands it to the platform's sandbox
 * (Linux: bubblewrap, see bwrap-args.ts; macOS: sandbox-exec, see seatbelt-profile.ts). Paths are
 * real (symlinks resolved) and absolute.
 */
import type { RelayRuntime } from './network-relay';

export interface SandboxSpec {
  /** Which sandbox: bubblewrap (Linux) or Seatbelt through sandbox-exec (macOS). */
  engine: SandboxEngine;
  /** The program that builds the sandbox (bwrap, or /usr/bin/sandbox-exec). */
  runner: string;
  /** Readable, never writable: the server's install location, folders shared read-only. */
  readOnly: string[];
  /** Readable and writable: the folders shared with it. */
  readWrite: string[];
  /** Its private scratch folder (HOME and TMPDIR inside), under Patchbay's data directory. */
  scratch: string;
  /** Folders hidden even when inside a shared one (Patchbay's data directory: database, secrets). */
  hidden: string[];
  /**
   * `blocked`: no network at all, loopback included (a network namespace of its own). `allowed`: the
   * internet; under bubblewrap only through the proxy (below), so the host's own sockets stay out of
   * reach; under Seatbelt the host's network as it is.
   */
  network: 'allowed' | 'blocked';
  /**
   * Its HTTP(S)_PROXY is 127.0.0.1:`port`, the host-filter proxy ("Only these hosts", and "Allowed"
   * under bubblewrap). Under bubblewrap (a network namespace of its own) a relay run by `relay.runtime`
   * forwards that port inside to the proxy's unix socket `relay.socket` in the scratch folder; under
   * Seatbelt the proxy listens on the host's loopback at `port` and the profile lets it reach that port only.
   */
  proxy?: { port: number; relay?: { socket: string; runtime: RelayRuntime } };
  /**
   * Hears the spec as launched: with the server's install location added, which only the launch knows
   * (it is found from the resolved program). Whoever reads denials needs it, or the server's own code
   * would look like a place outside the sandbox.
   */
  onLaunched?(full: SandboxSpec): void;
}

export type SandboxEngine = 'bubblewrap' | 'seatbelt';
