import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { StoredServer } from '../server-config/server-config-repository';
import { presetLaunch } from '../server-config/presets';
import { resolveCwd } from '../server-config/server-input-check';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerConfig } from '../servers/server-connection';

/**
 * What to spawn for a stored server: secrets opened (only now, in memory, for the child), presets
 * mapped onto the app's own runtime, the working directory resolved. Rejects with a message naming
 * the variable when a secret cannot be opened or was never given a value.
 */
export async function buildLaunchConfig(server: StoredServer, secrets: SecretBox): Promise<ServerConfig> {
  const env: Record<string, string> = {};
  for (const variable of server.env) {
    if (!variable.sealed) {
      env[variable.key] = variable.value;
      continue;
    }
    let value: string;
    try {
      value = await secrets.open(variable.sealed);
    } catch (error) {
      throw new Error(`Secret ${variable.key}: ${(error as Error).message}`);
    }
    if (value === '') throw new Error(`Secret ${variable.key} has no value yet: set it with Edit`);
    env[variable.key] = value;
  }
  const preset = presetLaunch(server.preset, server.command, server.args);
  return {
    id: server.id,
    name: server.name,
    command: preset?.command ?? server.command,
    args: preset?.args ?? server.args,
    env: { ...env, ...preset?.env },
    cwd: resolveCwd(server.cwd),
  };
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
