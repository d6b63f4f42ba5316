import os from 'node:os';
import {
  defaultSandbox,
  HostCallError,
  type HandlersFor,
  type ImportResult,
  type ServerInputParsed,
  type serverMethods,
  type ServerView,
} from '@contract';
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
  /** Restoring a Patchbay export: whether a bundle is installed here and free for a server to run. */
  bundleAvailable?: (id: string) => boolean;
  /** Called once a server's configuration is deleted (a bundle's files go with it). */
  onRemoved?: (server: StoredServer) => Promise<void>;
  /** After an import: what else the file carries (a Patchbay export's tool sets) is taken in; notes go in `result`. */
  onImported?: (text: string, result: ImportResult) => void;
  /**
   * Whether a new local server that comes without a sandbox choice starts sandboxed (this machine can
   * run a sandbox). Absent: false (hosts built for tests whose fixtures predate the default).
   */
  sandboxByDefault?: () => boolean;
}

/** What a new server may carry besides its input: where it came from, and whether it may be saved incomplete. */
export interface InsertExtras {
  preset?: StoredServer['preset'];
  bundleId?: string;
  /** An imported or restored server still waiting for values (saved disabled). */
  incompleteAllowed?: boolean;
}

/** The one way a server is added: validated whole, secrets sealed, committed, then started when enabled (without waiting). */
export async function insertServer(
  deps: Pick<ServerHandlerDeps, 'repo' | 'fleet' | 'secrets' | 'clock' | 'sandboxByDefault'>,
  input: ServerInputParsed,
  extra: InsertExtras = {},
): Promise<ServerView> {
  const { repo, fleet, secrets, clock } = deps;
  throwIfIssues(checkServerInput(input, repo, undefined, { incompleteAllowed: extra.incompleteAllowed }));
  // No choice made (an import, an API call): the default, sandboxed where it can run.
  const sandbox = input.sandbox ?? defaultSandbox(input.transport === 'stdio' && (deps.sandboxByDefault?.() ?? false));
  refuseIfOrganisationDoes(fleet, { ...input, sandbox });
  const pairs = await sealServerPairs(input, secrets);
  const stored = repo.insert(
    {
      ...input,
      sandbox,
      ...pairs,
      ...(extra.preset ? { preset: extra.preset } : {}),
      ...(extra.bundleId ? { bundleId: extra.bundleId } : {}),
    },
    clock.now(),
  );
  fleet.publish(stored.id);
  if (stored.enabled) void fleet.start(stored.id).catch(() => undefined);
  return fleet.view(stored);
}

/**
 * The one way a server's configuration is replaced: validated, committed, then applied live — a
 * running (or failing) server restarts with it, a newly enabled one starts, a disabled one stops; one
 * the user stopped stays stopped.
 */
export async function replaceServer(
  deps: Pick<ServerHandlerDeps, 'repo' | 'fleet' | 'secrets' | 'clock'>,
  id: string,
  input: ServerInputParsed,
): Promise<ServerView> {
  const { repo, fleet, secrets, clock } = deps;
  const existing = repo.get(id);
  throwIfIssues(checkServerInput(input, repo, existing));
  const sandbox = input.sandbox ?? existing?.sandbox ?? defaultSandbox(false);
  refuseIfOrganisationDoes(fleet, { ...input, sandbox });
  const pairs = await sealServerPairs(input, secrets, existing);
  const stored = repo.update(id, { ...input, sandbox, ...pairs, ...(existing?.preset ? { preset: existing.preset } : {}) }, clock.now());
  // A running server restarts with its new settings; "Starts with Patchbay" (enabled) decides only what happens at launch.
  if (fleet.viewById(id).runtime.status !== 'stopped') void fleet.start(id).catch(() => undefined);
  fleet.publish(id);
  return fleet.view(stored);
}

/** Adding (or changing a server into) one the organisation's policy denies is refused in its words. */
function refuseIfOrganisationDoes(fleet: ServerFleet, input: ServerInputParsed & { sandbox: StoredServer['sandbox'] }): void {
  const refused = fleet.admission?.refusalToAdd(input);
  if (refused) throw new HostCallError('forbidden', refused);
}

/** `base`, or `base 2`, `base 3`… whichever no server uses yet. */
export function uniqueServerName(repo: ServerConfigRepository, base: string): string {
  let name = base;
  for (let n = 2; repo.nameTaken(name); n++) name = `${base} ${n}`;
  return name;
}

/**
 * The contract's server methods. Every change is validated whole, committed in one transaction, and
 * only then applied to the running process, so the UI's "saved" always means saved.
 */
export function createServerHandlers(deps: ServerHandlerDeps): HandlersFor<typeof serverMethods> {
  const { repo, fleet, events, clock } = deps;
  const insert = (input: ServerInputParsed, extra: InsertExtras = {}) => insertServer(deps, input, extra);
  const uniqueName = (base: string) => uniqueServerName(repo, base);
  /**
   * Start and Stop decide what starts with Patchbay too ("enabled"): what the user last asked for is
   * what the next launch does, so a stopped server never shows as one that will start.
   */
  const startsWithPatchbay = (id: string, enabled: boolean) => {
    if (repo.get(id)?.enabled !== enabled) repo.setEnabled(id, enabled, clock.now());
  };
  const importContext = () => ({
    existingNames: new Set(repo.list().map((server) => server.name)),
    homeDir: os.homedir(),
    restore: { dataDir: deps.dataDir, bundleAvailable: deps.bundleAvailable ?? (() => false) },
  });

  return {
    addServer: (input) => insert(input),

    updateServer: ({ id, server: input }) => replaceServer(deps, id, input),

    removeServer: async ({ id }) => {
      const removed = repo.get(id);
      await fleet.forget(id);
      repo.remove(id);
      events.emit('serverRemoved', { id });
      if (removed) await deps.onRemoved?.(removed);
    },

    startServer: ({ id }) => {
      startsWithPatchbay(id, true);
      return fleet.start(id);
    },
    stopServer: ({ id }) => {
      startsWithPatchbay(id, false);
      return fleet.stop(id);
    },
    restartServer: ({ id }) => {
      startsWithPatchbay(id, true);
      return fleet.start(id);
    },

    // "Starts with Patchbay" decides what happens at launch only: a running server keeps running, a stopped one stays stopped.
    setServerEnabled: async ({ id, enabled }) => {
      repo.setEnabled(id, enabled, clock.now());
      fleet.publish(id);
      return fleet.viewById(id);
    },

    diagnoseServer: async ({ id }) => fleet.diagnose(id, (diagnosis) => events.emit('serverDiagnosis', diagnosis)),

    addPresetServer: ({ preset }) => insert(presetInput(preset, deps.dataDir, uniqueName), { preset }),

    previewImport: async ({ text }) => parseImport(text, importContext()),

    applyImport: async ({ text }) => {
      // Re-parsed against the servers as they are now, not as they were at preview time.
      const preview = parseImport(text, importContext());
      const result: ImportResult = { imported: [], notes: [], skipped: [] };
      for (const entry of preview.entries) {
        if (entry.action === 'skip' || !entry.server) {
          result.skipped.push({ name: entry.name, reason: entry.reason ?? 'Not importable' });
          continue;
        }
        try {
          result.imported.push(await insert(entry.server, { incompleteAllowed: true, preset: entry.preset, bundleId: entry.bundleId }));
          if (entry.reason) result.notes.push({ name: entry.server.name, note: entry.reason });
        } catch (error) {
          result.skipped.push({ name: entry.name, reason: (error as Error).message });
        }
      }
      deps.onImported?.(text, result);
      return result;
    },
  };
}
