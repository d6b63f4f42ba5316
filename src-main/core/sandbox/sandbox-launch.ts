/**
 * Wraps a resolved server command in its sandbox: the server's install location joins what it may
 * read, and the program that actually starts is the sandbox's (bubblewrap, or sandbox-exec on macOS).
 */
import { bwrapArgs } from './bwrap-args';
import { seatbeltArgs } from './seatbelt-profile';
import { installLocations } from './install-locations';
import type { SandboxSpec } from './sandbox-spec';

export function sandboxedLaunch(
  spec: SandboxSpec,
  file: string,
  args: readonly string[],
  cwd: string | undefined,
): { file: string; args: string[]; spec: SandboxSpec; cwd?: string } {
  const install = installLocations(file, args);
  const full: SandboxSpec = {
    ...spec,
    readOnly: [...new Set([...spec.readOnly, ...install.readOnly])],
    readWrite: [...new Set([...spec.readWrite, ...install.readWrite])],
  };
  spec.onLaunched?.(full);
  const command = { file, args: install.args, cwd: cwd ?? spec.scratch };
  // bubblewrap changes directory itself (--chdir); sandbox-exec runs where it is spawned.
  if (spec.engine === 'seatbelt') return { file: spec.runner, ...seatbeltArgs(full, command), spec: full };
  return { file: spec.runner, args: bwrapArgs(full, command), spec: full };
}
