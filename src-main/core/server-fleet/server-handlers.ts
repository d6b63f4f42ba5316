import os from 'node:os';
import type { HandlersFor, ImportResult, ServerInputParsed, serverMethods } from '../../../src-preload/contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { parseImport } from '../server-config/import/parse-import';
import { presetInput } from '../server-config/presets';
import type { ServerConfigRepository, StoredServer } from '../server-config/server-config-repository';
import { checkServerInput, sealServerPairs, throwIfIssues } from '../server-config/server-input-check';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerFleet } from './server-fleet';

export interface ServerHandlerDeps {
  repo: ServerConfigRepository;
  fleet: ServerFleet;
  secrets: SecretBox;
  events: HostEventBus;
  clock: Clock;
  dataDir: string;
}

/**
 * The contract's server methods. Every change is validated whole, committed in one transaction, and
 * only then applied to the running process, so the UI's "saved" always means saved.
 */
export function createServerHandlers(deps: ServerHandlerDeps): HandlersFor<typeof serverMethods> {
  const { repo, fleet, secrets, events, clock } = deps;

  /** Validates, seals and inserts; starts the server when enabled (without waiting for it). */
  const insert = async (input: ServerInputParsed, extra: { preset?: StoredServer['preset']; incompleteAllowed?: boolean } = {}) => {
    throwIfIssues(checkServerInput(input, repo, undefined, { incompleteAllowed: extra.incompleteAllowed }));
    const pairs = await sealServerPairs(input, secrets);
    const stored = repo.insert({ ...input, ...pairs, ...(extra.preset ? { preset: extra.preset } : {}) }, clock.now());
    fleet.publish(stored.id);
    if (stored.enabled) void fleet.start(stored.id).catch(() => undefined);
    return fleet.view(stored);
  };

  const uniqueName = (base: string) => {
    let name = base;
    for (let n = 2; repo.nameTaken(name); n++) name = `${base} ${n}`;
    return name;
  };

  const existingNames = () => new Set(repo.list().map((server) => server.name));

  return {
    addServer: (input) => insert(input),

    updateServer: async ({ id, server: input }) => {
      const existing = repo.get(id);
      throwIfIssues(checkServerInput(input, repo, existing));
      const pairs = await sealServerPairs(input, secrets, existing);
      const stored = repo.update(id, { ...input, ...pairs, ...(existing?.preset ? { preset: existing.preset } : {}) }, clock.now());
      // Live: a running (or failing) server restarts with the new configuration, a newly enabled one
      // starts, a disabled one stops; one the user stopped stays stopped.
      const status = fleet.viewById(id).runtime.status;
      if (!stored.enabled) await fleet.stop(id);
      else if (status !== 'stopped' || !existing?.enabled) void fleet.start(id).catch(() => undefined);
      fleet.publish(id);
      return fleet.view(stored);
    },

    removeServer: async ({ id }) => {
      await fleet.forget(id);
      repo.remove(id);
      events.emit('serverRemoved', { id });
    },

    startServer: ({ id }) => fleet.start(id),
    stopServer: ({ id }) => fleet.stop(id),
    restartServer: ({ id }) => fleet.start(id),

    setServerEnabled: async ({ id, enabled }) => {
      repo.setEnabled(id, enabled, clock.now());
      return enabled ? fleet.start(id) : fleet.stop(id);
    },

    addPresetServer: ({ preset }) => insert(presetInput(preset, deps.dataDir, uniqueName), { preset }),

    previewImport: async ({ text }) => parseImport(text, { existingNames: existingNames(), homeDir: os.homedir() }),

    applyImport: async ({ text }) => {
      // Re-parsed against the servers as they are now, not as they were at preview time.
      const preview = parseImport(text, { existingNames: existingNames(), homeDir: os.homedir() });
      const result: ImportResult = { imported: [], notes: [], skipped: [] };
      for (const entry of preview.entries) {
        if (entry.action === 'skip' || !entry.server) {
          result.skipped.push({ name: entry.name, reason: entry.reason ?? 'Not importable' });
          continue;
        }
        try {
          result.imported.push(await insert(entry.server, { incompleteAllowed: true }));
          if (entry.reason) result.notes.push({ name: entry.server.name, note: entry.reason });
        } catch (error) {
          result.skipped.push({ name: entry.name, reason: (error as Error).message });
        }
      }
      return result;
    },
  };
}
