import type Database from 'better-sqlite3';
import type { RootsSnapshot } from '@contract';
import type { HostEventBus } from '../events';
import type { QuestionQueue } from '../questions/question-queue';
import type { Clock } from '../clock';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import { formatDuration } from '../servers/connection/server-state';
import { RootsAuditRepository } from './roots-audit-repository';
import { RootsConnections } from './roots-connections';
import { RootsConsentBroker } from './roots-consent';
import { createRootsHandlers } from './roots-handlers';
import { RootsRepository } from './roots-repository';
import { RootsService, type SharedFolder } from './roots-service';

/** Roots timings; tests shorten them. */
export interface RootsTimings {
  /** An unanswered "Share folders" question counts as "Don't share" after this long (default 10 min). */
  consentTimeoutMs?: number;
  /** How long a 2025-era roots/list waits for that answer before getting what is decided (default 30 s). */
  holdMs?: number;
  /** How often every folder's availability is re-checked (default 10 s; 0 disables the timer). */
  availabilityIntervalMs?: number;
}

/**
 * The folders shared with servers, stored (roots, sharing choices, their audit trail): made before the
 * sandboxes, which are built with what a server may use, and long before the roots area, which asks
 * the user and tells the servers. Splitting them is what lets each be made from what is made before it.
 */
export interface SharedFolders {
  service: RootsService;
  audit: RootsAuditRepository;
}

export function createSharedFolders(deps: {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  serverName(id: string): string | undefined;
}): SharedFolders {
  const repo = new RootsRepository(deps.db);
  const audit = new RootsAuditRepository(deps.db);
  const service = new RootsService({ repo, audit, events: deps.events, clock: deps.clock, serverName: deps.serverName });
  return { service, audit };
}

export interface RootsAreaDeps {
  folders: SharedFolders;
  clock: Clock;
  /** Where the "Share folders" questions wait for the user. */
  questions: QuestionQueue;
  restartServer(id: string): void;
  /** The folders a running sandboxed server's sandbox was built with (undefined: not sandboxed). */
  sandboxedFolders?(id: string): readonly SharedFolder[] | undefined;
  pickFolder?: () => Promise<string | undefined>;
  timings?: RootsTimings;
}

/** Everything the host needs from the roots area. */
export interface RootsArea {
  readonly name: 'roots';
  plugin: ConnectionPlugin;
  handlers: ReturnType<typeof createRootsHandlers>;
  snapshot(): { roots: RootsSnapshot };
  /** Stops the availability timer and settles every open question as "nothing shared". */
  dispose(): void;
}

const MINUTE = 60_000;

/** Builds the roots area from the shared folders: the consent broker, the connection plugin, handlers. */
export function createRootsArea(deps: RootsAreaDeps): RootsArea {
  const { consentTimeoutMs = 10 * MINUTE, holdMs = 30_000, availabilityIntervalMs = 10_000 } = deps.timings ?? {};
  const { service, audit } = deps.folders;
  const consent = new RootsConsentBroker({
    questions: deps.questions,
    clock: deps.clock,
    timeoutMs: consentTimeoutMs,
    onAnswer: (request, answer) => {
      const mode = !answer.share ? 'none' : answer.rootIds ? 'subset' : 'all';
      // The audit trail names the button the user pressed, in the dialog's words.
      const how = answer.share ? 'you chose Share when it asked' : 'you chose Don’t share when it asked';
      service.setSharing(request.serverId, mode, answer.rootIds ?? [], how);
    },
    batch: (answerAll) => service.batch(answerAll),
    onSettled: (request, outcome) => {
      if (outcome !== 'timed-out') return;
      const ref = { id: request.serverId, name: request.serverName };
      service.recordNote(ref, `“Share folders” was not answered within ${formatDuration(consentTimeoutMs)}: nothing shared`);
    },
  });
  const connections = new RootsConnections({
    service,
    consent,
    holdMs,
    modernHoldMs: consentTimeoutMs,
    restartServer: deps.restartServer,
    sandboxedFolders: deps.sandboxedFolders,
    onWarning: (_server, message) => console.warn(`[patchbay] ${message}`),
  });
  service.onChanged = (change) => void connections.notify(change);

  // Availability: checked now, on every roots/list, and on a modest timer (cheap: one stat per folder).
  let checking = false;
  let disposed = false;
  const check = () => {
    if (checking || disposed) return;
    checking = true;
    void service
      .refreshAvailability()
      // A check still on its way when the host shut down finds the database closed: nothing to report.
      .catch(
        (error: unknown) => disposed || console.warn(`[patchbay] checking the roots' availability failed: ${(error as Error).message}`),
      )
      .finally(() => (checking = false));
  };
  check();
  const timer = availabilityIntervalMs > 0 ? setInterval(check, availabilityIntervalMs) : undefined;
  timer?.unref();

  return {
    name: 'roots',
    plugin: connections.plugin,
    handlers: createRootsHandlers({ service, audit, pickFolder: deps.pickFolder }),
    snapshot: () => ({
      roots: {
        roots: service.views(),
        sharing: service.sharingViews(),
        audit: audit.list({ limit: 50 }),
      },
    }),
    dispose: () => {
      disposed = true;
      clearInterval(timer);
      consent.dispose();
    },
  };
}
