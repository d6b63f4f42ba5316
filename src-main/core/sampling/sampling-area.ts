/**
 * Builds the sampling and elicitation area for the composition root: storage, the two services, the
 * connection plugin (capabilities + SDK handlers + withdrawal when a server goes), handlers, snapshot.
 * Their requests wait for the user as questions of the one queue (questions/), answered through it.
 */
import type Database from 'better-sqlite3';
import type { HandlersFor, samplingMethods, SamplingSnapshot } from '@contract';
import { ElicitationService } from '../elicitation/elicitation-service';
import type { ConnectionPlugin } from '../server-fleet/connection-plugins';
import { SamplingRepository } from './sampling-repository';
import { SamplingService, type SamplingServiceDeps } from './sampling-service';

/** What the sampling service needs, with the database its repository is built on in place of the repository. */
export type SamplingAreaDeps = Omit<SamplingServiceDeps, 'repo'> & { db: Database.Database };

export interface SamplingArea {
  readonly name: 'sampling';
  sampling: SamplingService;
  elicitation: ElicitationService;
  plugin: ConnectionPlugin;
  handlers: HandlersFor<typeof samplingMethods>;
  snapshot(): { sampling: SamplingSnapshot };
  /** Pending requests are answered (rejected / cancelled) before the servers stop; later ones are refused. */
  dispose(): void;
}

export function createSamplingArea(deps: SamplingAreaDeps): SamplingArea {
  const repo = new SamplingRepository(deps.db);
  const sampling = new SamplingService({ ...deps, repo });
  const elicitation = new ElicitationService({ ...deps, repo });
  const kinds = ['sampling', 'elicitation'] as const;
  const withdraw = (serverId: string, note: string) => deps.questions.withdrawServer(serverId, note, kinds);
  const plugin: ConnectionPlugin = {
    // Exactly what is implemented: sampling without context inclusion or tools; both elicitation modes.
    capabilities: { sampling: {}, elicitation: { form: {}, url: {} } },
    install: (client, server) => {
      client.setRequestHandler('sampling/createMessage', (request, ctx) => sampling.handle(server, request.params, ctx.mcpReq.signal));
      client.setRequestHandler('elicitation/create', (request, ctx) => elicitation.handle(server, request.params, ctx.mcpReq.signal));
    },
    onStateChange: (server, state) => {
      if (state.status !== 'ready') withdraw(server.id, `Server "${server.name}" is ${state.status}: its request was withdrawn.`);
    },
    onRemoved: (server) => {
      withdraw(server.id, `Server "${server.name}" was removed: its request was withdrawn.`);
      repo.forget(server.id);
    },
  };
  const policiesChanged = () => {
    const list = repo.policies();
    deps.events.emit('samplingPoliciesChanged', list);
    return list;
  };
  const handlers: HandlersFor<typeof samplingMethods> = {
    listSamplingPolicies: async () => repo.policies(),
    setSamplingPolicy: async (policy) => {
      repo.setPolicy(policy, deps.clock.now());
      return policiesChanged();
    },
    listInteractionAudit: async (query) => repo.audit(query),
  };
  return {
    name: 'sampling',
    sampling,
    elicitation,
    plugin,
    handlers,
    snapshot: () => ({ sampling: { policies: repo.policies() } }),
    dispose: () => deps.questions.shutdown(kinds),
  };
}
