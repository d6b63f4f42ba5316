import crypto from 'node:crypto';
import type { ServerDiagnosis } from '@contract';
import type { StoredServer } from '../server-config/server-config-repository';
import { recordFor } from '../servers/process/process-reaper';
import { CONNECTION_DEFAULTS, type ServerConfig } from '../servers/connection/server-connection';
import { diagnoseLaunch, type DiagnosisSandbox } from './launch-diagnosis';
import type { FleetSandboxes, ServerFleetOptions } from './fleet-options';

/**
 * A stored server's launch, re-run step by step (`diagnoseLaunch`) with what the fleet launches it
 * with: its secrets, the launch override (bundles), the connection defaults, its remote sign-in and,
 * when sandboxed, its sandbox. The fleet decides whether a diagnosis may run; this says how.
 */
export function diagnoseStoredServer(
  server: StoredServer,
  fleet: ServerFleetOptions,
  run: { onProgress: (diagnosis: ServerDiagnosis) => void; signal: AbortSignal },
): Promise<ServerDiagnosis> {
  const { id } = server;
  const defaults = fleet.connectionDefaults;
  const now = () => fleet.clock.now();
  return diagnoseLaunch({
    runId: crypto.randomUUID(),
    server,
    secrets: fleet.secrets,
    launchOverride: fleet.launchOverride,
    parentEnv: defaults?.parentEnv,
    loginShellPath: defaults?.loginShellPath,
    remoteAuth:
      server.transport === 'http'
        ? fleet.remoteAuth?.forServer({ id, name: server.name, url: server.url, signInMode: server.signInMode })
        : undefined,
    shutdown: defaults?.shutdown,
    clientInfo: { name: 'Patchbay', version: '0.1.0' },
    handshakeMs: server.initTimeoutMs,
    probeMs: defaults?.timeouts?.probeMs ?? CONNECTION_DEFAULTS.probeMs,
    requestMs: server.requestTimeoutMs,
    now,
    redact: (text) => fleet.redact?.(id, text) ?? text,
    onProgress: run.onProgress,
    signal: run.signal,
    // Recorded like any server process, so a Patchbay killed mid-diagnosis reaps it at the next start.
    onSpawn: (proc) =>
      void Promise.resolve(fleet.processStore.add(recordFor(id, proc, server.command, now().getTime()))).catch(() => undefined),
    onEnded: (pid) => void Promise.resolve(fleet.processStore.remove(pid)).catch(() => undefined),
    sandbox:
      fleet.sandboxes && server.transport === 'stdio' && server.sandbox.enabled ? diagnosisSandbox(fleet.sandboxes, server) : undefined,
  });
}

/** A sandboxed server is diagnosed inside its sandbox (see `DiagnosisSandbox`). */
function diagnosisSandbox(sandboxes: FleetSandboxes, server: StoredServer): DiagnosisSandbox {
  let applied: ServerConfig['sandbox'];
  return {
    apply: async (config) => {
      const boxed = await sandboxes.apply(server, config);
      applied = boxed.sandbox;
      return boxed;
    },
    release: () => sandboxes.release(server.id, applied),
    summary: () => {
      const seen = sandboxes.runtime(server.id);
      // What its arguments name that it will not see (or not write): the step says it, not "OK" alone.
      const notes = (seen?.pathNotes ?? []).map(
        (note) =>
          `; its ${note.from} ${note.path} is ${note.kind === 'hidden' ? 'hidden from it' : 'read-only to it'} (Share folder, or Run unsandboxed)`,
      );
      return `${seen?.summary ?? 'Sandboxed'}${notes.join('')}`;
    },
    paths: (stderr) => {
      const seen = sandboxes.runtime(server.id, stderr);
      return { ...(seen?.blockedPath ? { blockedPath: seen.blockedPath } : {}), ...(seen?.pathNotes ? { pathNotes: seen.pathNotes } : {}) };
    },
    explain: (stderr) => {
      const seen = sandboxes.runtime(server.id, stderr);
      const blocked = seen?.blockedPath ? `It could not read ${seen.blockedPath}: outside the sandbox.` : undefined;
      return [blocked, seen?.registryNote].filter(Boolean).join(' ') || undefined;
    },
  };
}
