import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { StoredEnvVar, StoredServer } from '../server-config/server-config-repository';
import { presetLaunch } from '../server-config/presets';
import { resolveCwd } from '../server-config/server-input-check';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerConfig } from '../servers/connection/server-connection';

/**
 * What an area changes in a stored server's launch (a bundle: the app's own Node, sealed values for
 * its arguments); undefined for servers it has nothing to do with.
 */
export type LaunchOverride = (
  server: StoredServer,
) => Promise<{ command?: string; args?: string[]; env?: Record<string, string> } | undefined>;

/**
 * What to spawn for a stored server: secrets opened (only now, in memory, for the child), presets
 * mapped onto the app's own runtime, the working directory resolved. Rejects with a message naming
 * the variable when a secret cannot be opened or was never given a value.
 */
export async function buildLaunchConfig(server: StoredServer, secrets: SecretBox, override?: LaunchOverride): Promise<ServerConfig> {
  if (server.transport === 'http') {
    return {
      id: server.id,
      name: server.name,
      command: '',
      remote: { url: server.url, headers: await openPairs(server.headers, secrets, 'header') },
    };
  }
  const env = await openPairs(server.env, secrets, 'variable');
  const preset = presetLaunch(server.preset, server.command, server.args) ?? (await override?.(server));
  return {
    id: server.id,
    name: server.name,
    command: preset?.command ?? server.command,
    args: preset?.args ?? server.args,
    env: { ...env, ...preset?.env },
    cwd: resolveCwd(server.cwd),
  };
}

/** Plain values as they are, sealed ones opened (only now, in memory); a secret without a value is an error. */
async function openPairs(pairs: readonly StoredEnvVar[], secrets: SecretBox, what: 'variable' | 'header'): Promise<Record<string, string>> {
  const opened: Record<string, string> = {};
  for (const pair of pairs) {
    if (!pair.sealed) {
      opened[pair.key] = pair.value;
      continue;
    }
    let value: string;
    try {
      value = await secrets.open(pair.sealed);
    } catch (error) {
      throw new Error(`Secret ${what === 'header' ? 'header ' : ''}${pair.key}: ${(error as Error).message}`);
    }
    if (value === '') throw new Error(`Secret ${what === 'header' ? 'header ' : ''}${pair.key} has no value yet: set it with Edit`);
    opened[pair.key] = value;
  }
  return opened;
}

/** The cached era verdict, when it is still readable. */
export function parseEraVerdict(json: string | undefined): PriorDiscovery | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as PriorDiscovery;
  } catch {
    return undefined;
  }
}
