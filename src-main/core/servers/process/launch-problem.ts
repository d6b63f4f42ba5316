/**
 * A launch failure turned into a way forward: what was looked for and where, and the fixes that
 * apply — the command's full path, installing what provides it (`npx` comes with Node.js, `uvx`
 * with uv, `docker` with Docker…), the server's form at the field to change.
 */
import path from 'node:path';
import type { LaunchFix, LaunchProblem } from '@contract';
import type { LaunchError } from './launch-error';

/** What provides a command that is commonly missing, and where to get it. */
interface Provider {
  tool: string;
  url: string;
  /** What installing it brings, in words ("it includes npx"). */
  brings?: string;
}

const NODE: Provider = { tool: 'Node.js', url: 'https://nodejs.org/en/download', brings: 'it includes npm and npx' };
const UV: Provider = { tool: 'uv', url: 'https://docs.astral.sh/uv/getting-started/installation/', brings: 'it includes uvx' };
const PYTHON: Provider = { tool: 'Python', url: 'https://www.python.org/downloads/' };
const DOCKER: Provider = { tool: 'Docker', url: 'https://docs.docker.com/get-started/get-docker/' };
const BUN: Provider = { tool: 'Bun', url: 'https://bun.sh/docs/installation', brings: 'it includes bunx' };
const DENO: Provider = { tool: 'Deno', url: 'https://docs.deno.com/runtime/getting_started/installation/' };

const PROVIDERS: Record<string, Provider> = {
  node: NODE,
  npm: NODE,
  npx: NODE,
  corepack: NODE,
  uv: UV,
  uvx: UV,
  python: PYTHON,
  python3: PYTHON,
  pip: PYTHON,
  pip3: PYTHON,
  docker: DOCKER,
  bun: BUN,
  bunx: BUN,
  deno: DENO,
};

/** The command's bare name (`npx` for `npx`, `npx.cmd` or `/usr/bin/npx`), lower-case. */
function bareName(command: string): string {
  return path
    .basename(command.trim())
    .replace(/\.(cmd|exe|bat)$/i, '')
    .toLowerCase();
}

/** What installs a command, when it is one Patchbay knows (npx, uvx, docker…). */
export function providerOf(command: string): Provider | undefined {
  return PROVIDERS[bareName(command)];
}

/** The launch problem of a `LaunchError`, with its fixes (undefined when the error carries no details). */
export function launchProblemOf(error: LaunchError, platform: NodeJS.Platform = process.platform): LaunchProblem | undefined {
  const details = error.details;
  if (!details) return undefined;
  const { command } = details;
  const searched = details.searched ?? [];
  const isPath = command.includes('/') || (platform === 'win32' && command.includes('\\')) || path.isAbsolute(command);
  const fixes: LaunchFix[] = [];
  const editCommand: LaunchFix = { kind: 'edit', field: 'command', text: 'Edit the server’s Command' };

  switch (error.code) {
    case 'command-not-found': {
      const provider = isPath ? undefined : providerOf(command);
      if (provider) {
        fixes.push({
          kind: 'install',
          tool: provider.tool,
          url: provider.url,
          text: `Install ${provider.tool}${provider.brings ? ` (${provider.brings})` : ''}, then restart the server`,
        });
      }
      fixes.push(
        isPath
          ? { kind: 'hint', text: `Check the path: nothing exists at ${path.resolve(details.cwd ?? '', command)}` }
          : {
              kind: 'hint',
              text: `If ${command} is installed somewhere else, use its full path as the Command (in a terminal, \`${platform === 'win32' ? 'where' : 'which'} ${command}\` prints it)`,
            },
        editCommand,
      );
      break;
    }
    case 'not-executable':
      fixes.push(
        platform === 'win32'
          ? { kind: 'hint', text: `${details.file ?? command} cannot be run: check that it is a program and that you may run it` }
          : { kind: 'hint', text: `Make it executable: chmod +x ${details.file ?? command}` },
        editCommand,
      );
      break;
    case 'cwd-missing':
      fixes.push(
        { kind: 'hint', text: `Create the folder ${details.cwd ?? ''}, or choose one that exists` },
        { kind: 'edit', field: 'cwd', text: 'Edit the server’s Working directory' },
      );
      break;
    case 'spawn-failed':
      fixes.push(editCommand);
      break;
  }
  return {
    kind: error.code,
    command,
    ...(details.file ? { resolved: details.file } : {}),
    searched,
    ...(details.cwd ? { cwd: details.cwd } : {}),
    fixes,
  };
}
