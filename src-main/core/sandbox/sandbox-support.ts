/**
 * Whether this machine can run servers in a sandbox: Linux with bubblewrap installed and user
 * namespaces allowed, or macOS with its built-in sandbox-exec (Seatbelt). Found once per process by
 * running a tiny sandbox for real (a kernel that forbids unprivileged user namespaces, or a macOS
 * that dropped sandbox-exec, only shows itself that way).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxSupport } from '@contract';
import type { SandboxEngine } from './sandbox-spec';

/** The support verdict plus, when supported, the sandbox program to use and which kind it is. */
export type SandboxRunner = SandboxSupport & { runner?: string; engine?: SandboxEngine };

/** macOS's sandbox program (a fixed path: never looked up on PATH, which a user could shadow). */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

const INSTALL = 'install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap)';

let cached: SandboxRunner | undefined;

/** The verdict for this machine (cached after the first call). */
export function sandboxSupport(): SandboxRunner {
  cached ??= detect(process.platform, process.env.PATH ?? '');
  return cached;
}

export function detect(platform: NodeJS.Platform, pathVar: string): SandboxRunner {
  if (platform === 'win32')
    return {
      supported: false,
      reason: 'Servers run unsandboxed on Windows, with your full access: Patchbay has no sandbox for Windows yet.',
    };
  if (platform === 'darwin') return detectSeatbelt(SANDBOX_EXEC);
  if (platform !== 'linux')
    return { supported: false, reason: 'Sandboxes are only available on Linux and macOS: servers run with your full access.' };
  const runner = findOnPath('bwrap', pathVar);
  if (!runner) return { supported: false, reason: `New servers run unsandboxed here, with your full access: to sandbox them, ${INSTALL}.` };
  const trial = spawnSync(
    runner,
    ['--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', 'true'],
    { encoding: 'utf8', timeout: 5000 },
  );
  if (trial.status === 0) return { supported: true, runner, engine: 'bubblewrap' };
  const why = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().split('\n')[0];
  return {
    supported: false,
    reason: `New servers run unsandboxed here: bubblewrap cannot create a sandbox (${why}); allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or ${INSTALL} with its setuid helper.`,
  };
}

/** macOS: sandbox-exec present and able to apply a profile (a trivial one that allows everything). */
export function detectSeatbelt(program: string): SandboxRunner {
  const trial = spawnSync(program, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { encoding: 'utf8', timeout: 5000 });
  if (trial.status === 0) return { supported: true, runner: program, engine: 'seatbelt' };
  const why = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().split('\n')[0];
  return {
    supported: false,
    reason: `macOS's sandbox (sandbox-exec) cannot run here (${why}): servers run with your full access.`,
  };
}

export function findOnPath(name: string, pathVar: string): string | undefined {
  for (const dir of [...pathVar.split(path.delimiter), '/usr/bin', '/bin']) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The verdict as the renderer sees it (without the program's path). */
export function publicSupport(support: SandboxRunner): SandboxSupport {
  return support.supported ? { supported: true } : { supported: false, reason: support.reason };
}
