import type { ServerRuntime } from '@contract';
import type { ServerCatalog, ServerState } from '../servers/connection/server-state';
import { describeExit } from '../servers/connection/server-state';

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** Capability names a server declared, for display ("tools", "resources", "logging"…). */
function capabilityNames(capabilities: object): string[] {
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name]) => name)
    .sort();
}

/** Turns the connection's state machine into what the renderer shows. Plain data, safe to send. */
export function toRuntimeView(state: ServerState, catalog: ServerCatalog, pid: number | undefined): ServerRuntime {
  switch (state.status) {
    case 'stopped':
      return {
        status: 'stopped',
        since: iso(state.since),
        ...(state.exit
          ? { exit: { code: state.exit.code, signal: state.exit.signal }, reason: `Stopped (${describeExit(state.exit)})` }
          : {}),
      };
    case 'starting':
      return {
        status: 'starting',
        since: iso(state.since),
        detail: state.detail,
        ...(pid ? { pid } : {}),
        ...(state.retry ? { restart: { attempt: state.retry.attempt, of: state.retry.maxAttempts, at: iso(state.retry.at) } } : {}),
      };
    case 'ready': {
      const { server } = state;
      return {
        status: 'ready',
        since: iso(state.since),
        // Remote servers have no process.
        ...(server.pid > 0 ? { pid: server.pid } : {}),
        ...(server.serverInfo
          ? {
              serverInfo: {
                name: server.serverInfo.name,
                version: server.serverInfo.version,
                ...(server.serverInfo.title ? { title: server.serverInfo.title } : {}),
              },
            }
          : {}),
        protocolVersion: server.protocolVersion,
        era: server.era === 'modern' ? 'modern' : 'legacy',
        capabilities: capabilityNames(server.capabilities),
        ...(server.capabilities.resources?.subscribe ? { resourceSubscriptions: true } : {}),
        counts: { tools: catalog.tools.length, resources: catalog.resources.length, prompts: catalog.prompts.length },
      };
    }
    case 'error':
      return {
        status: 'error',
        since: iso(state.since),
        reason: state.reason,
        lastStderr: state.stderrTail,
        ...(state.launch ? { launch: state.launch } : {}),
      };
    case 'crashed':
      return {
        status: 'crashed',
        since: iso(state.since),
        reason: state.reason,
        lastStderr: state.stderrTail,
        ...(state.exit ? { exit: { code: state.exit.code, signal: state.exit.signal } } : {}),
        ...(state.restart ? { restart: { attempt: state.restart.attempt, of: state.restart.maxAttempts, at: iso(state.restart.at) } } : {}),
      };
  }
}
