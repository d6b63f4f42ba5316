/**
 * Whether the organisation's policy lets a server be added and started: not denied, allowed when
 * there is an allow list, and in a sandbox when one is required (local servers: a remote server runs
 * elsewhere). The refusal names the organisation and the file, so the user knows whom to ask.
 */
import type { StoredServer } from '../../server-config/server-config-repository';
import type { ManagedPolicy, ServerMatcher } from './managed-settings';

/** What a server is judged on (a stored one, or an input about to be added). */
export type AdmittedServer = Pick<StoredServer, 'name' | 'transport' | 'command' | 'args' | 'url'> & {
  sandbox?: { enabled: boolean };
};

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
}

export function matchesServer(matcher: ServerMatcher, server: AdmittedServer): boolean {
  if ('name' in matcher) return matcher.name === server.name;
  if ('url' in matcher) return server.transport === 'http' && globToRegExp(matcher.url).test(server.url);
  if (server.transport === 'http') return false;
  const argv = [server.command, ...server.args];
  return matcher.command.length <= argv.length && matcher.command.every((part, i) => argv[i] === part);
}

/** Why the organisation does not let this server be added; undefined when it does. */
export function refusalToAdd(policy: ManagedPolicy | undefined, server: AdmittedServer): string | undefined {
  if (!policy) return undefined;
  if (policy.deniedServers.some((matcher) => matchesServer(matcher, server)))
    return `Your organisation does not allow the server "${server.name}" (deniedServers in ${policy.file}).`;
  if (policy.allowedServers && !policy.allowedServers.some((matcher) => matchesServer(matcher, server)))
    return `Your organisation allows only the servers it lists, and "${server.name}" is not one of them (allowedServers of ${policy.file}).`;
  return undefined;
}

/** Why the organisation does not let this server start; undefined when it may. */
export function refusalToStart(policy: ManagedPolicy | undefined, server: AdmittedServer): string | undefined {
  const refused = refusalToAdd(policy, server);
  if (refused || !policy) return refused;
  if (policy.sandboxRequired && server.transport !== 'http' && !server.sandbox?.enabled)
    return `Set by your organisation: local servers run only in a sandbox (${policy.file}). Turn on the sandbox for "${server.name}" to start it.`;
  return undefined;
}
