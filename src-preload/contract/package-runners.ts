/**
 * Package runners (`npx`, `uvx`, `pipx run`…) fetch the server's package from a registry as they
 * start: in a sandbox whose network cannot reach that registry they fail before the server exists.
 * One place says which runner needs which hosts, for the form's warning and the failed launch's message.
 */
import type { SandboxNetwork } from './sandbox';

/** What a runner fetches from, and the hosts it must reach. */
export interface RegistryNeed {
  runner: string;
  registry: string;
  hosts: string[];
}

const NPM = { registry: 'the npm registry', hosts: ['registry.npmjs.org'] };
const PYPI = { registry: 'PyPI', hosts: ['pypi.org', 'files.pythonhosted.org'] };

/** Runners by program name; `sub` when only one subcommand fetches (`pnpm dlx`, `pipx run`). */
const RUNNERS: { name: string; sub?: string; need: Omit<RegistryNeed, 'runner'> }[] = [
  { name: 'npx', need: NPM },
  { name: 'bunx', need: NPM },
  { name: 'pnpx', need: NPM },
  { name: 'pnpm', sub: 'dlx', need: NPM },
  { name: 'yarn', sub: 'dlx', need: NPM },
  { name: 'npm', sub: 'exec', need: NPM },
  { name: 'uvx', need: PYPI },
  { name: 'uv', sub: 'run', need: PYPI },
  { name: 'pipx', sub: 'run', need: PYPI },
];

/** The registry `command` fetches from as it starts, when it is a package runner (undefined otherwise). */
export function registryNeed(command: string, args: readonly string[]): RegistryNeed | undefined {
  const name = (command.trim().split(/[\\/]/).pop() ?? '').replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
  const runner = RUNNERS.find((r) => r.name === name && (r.sub === undefined || args[0] === r.sub));
  if (!runner) return undefined;
  return { runner: runner.sub ? `${runner.name} ${runner.sub}` : runner.name, ...runner.need };
}

/** True when a sandbox with this network cannot reach every host the runner needs. */
export function registryBlocked(need: RegistryNeed, network: SandboxNetwork, allowed: readonly string[]): boolean {
  if (network === 'allowed') return false;
  if (network === 'blocked') return true;
  return need.hosts.some((host) => !allowed.some((entry) => listed(host, entry)));
}

/** "npx needs the npm registry (registry.npmjs.org) to start: allow that host or run with network allowed". */
export function registryMessage(need: RegistryNeed): string {
  const these = need.hosts.length === 1 ? 'that host' : 'those hosts';
  return `${need.runner} needs ${need.registry} (${need.hosts.join(', ')}) to start: allow ${these} or run with network allowed.`;
}

/** `host` matches a Hosts entry (`name`, `*.suffix`, `name:443` — HTTPS is what registries use). */
function listed(host: string, entry: string): boolean {
  const [pattern, port] = entry.toLowerCase().split(':');
  if (port !== undefined && port !== '443') return false;
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
}
