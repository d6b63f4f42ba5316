/**
 * Wraps a resolved server command in its sandbox: the server's install location joins what it may
 * read, and the program that actually starts is bubblewrap.
 */
import { bwrapArgs } from './bwrap-args';
import { installLocations } from './install-locations';
import type { SandboxSpec } from './sandbox-spec';

export function sandboxedLaunch(
  spec: SandboxSpec,
  file: string,
  args: readonly string[],
  cwd: string | undefined,
): { file: string; args: string[]; spec: SandboxSpec } {
  const install = installLocations(file, args);
  const full: SandboxSpec = {
    ...spec,
    readOnly: [...new Set([...spec.readOnly, ...install.readOnly])],
    readWrite: [...new Set([...spec.readWrite, ...install.readWrite])],
  };
  spec.onLaunched?.(full);
  return { file: spec.runner, args: bwrapArgs(full, { file, args: install.args, cwd: cwd ?? spec.scratch }), spec: full };
}
