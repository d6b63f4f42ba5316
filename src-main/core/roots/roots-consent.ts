import crypto from 'node:crypto';
import { HostCallError, type RootsConsentOutcome, type RootsConsentRequest } from '../../../src-preload/contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { ServerRef } from '../server-fleet/connection-plugins';

/** The user's answer to "Share folders". `rootIds` omitted with `share` = every folder, later ones too. */
export interface RootsConsentAnswer {
  share: boolean;
  rootIds?: string[];
}

export interface RootsConsentOptions {
  events: HostEventBus;
  clock: Clock;
  /** How long a question waits for the user before it counts as "Don't share" (default 10 min). */
  timeoutMs: number;
  /** The user answered: persist the decision. Runs before the question settles, so waiters see it. */
  onAnswer(request: RootsConsentRequest, answer: RootsConsentAnswer): void;
  /** Wraps the answers to a whole group, so what they change is told to servers once (see `RootsService.batch`). */
  batch?(answerAll: () => void): void;
  /** Any settlement (answer, timeout, withdrawal, shutdown), after `onAnswer`. */
  onSettled?(request: RootsConsentRequest, outcome: RootsConsentOutcome): void;
}

interface Pending {
  request: RootsConsentRequest;
  timer: NodeJS.Timeout;
  settled: Promise<RootsConsentOutcome>;
  resolve(outcome: RootsConsentOutcome): void;
}

/**
 * The pending "Share folders" questions: plain data keyed by id (they cross the contract), at most one
 * per server (later `roots/list` requests of the same server join it), each settled exactly once —
 * by the user's answer, by the timeout or the host's shutdown (both: nothing shared), or withdrawn
 * when the server goes away. Nothing here ever waits forever.
 */
export class RootsConsentBroker {
  private readonly byId = new Map<string, Pending>();

  constructor(private readonly options: RootsConsentOptions) {}

  /** Every open question, oldest first. */
  list(): RootsConsentRequest[] {
    return [...this.byId.values()].map((p) => p.request);
  }

  /** The open question for a server, if any. */
  openFor(serverId: string): RootsConsentRequest | undefined {
    return this.find(serverId)?.request;
  }

  /** Asks the user about `server` (or joins the question already open); resolves when it settles. */
  ask(server: ServerRef): Promise<RootsConsentOutcome> {
    const existing = this.find(server.id);
    if (existing) return existing.settled;
    const now = this.options.clock.now();
    const id = crypto.randomUUID();
    // While a question is open, a new one joins its group: the servers one change made ask are answered in one dialog.
    const open = this.byId.values().next().value as Pending | undefined;
    const request: RootsConsentRequest = {
      id,
      groupId: open?.request.groupId ?? id,
      serverId: server.id,
      serverName: server.name,
      requestedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.options.timeoutMs).toISOString(),
    };
    let resolve!: (outcome: RootsConsentOutcome) => void;
    const settled = new Promise<RootsConsentOutcome>((r) => (resolve = r));
    const timer = setTimeout(() => this.settle(request.id, 'timed-out'), this.options.timeoutMs);
    timer.unref();
    this.byId.set(id, { request, timer, settled, resolve });
    this.options.events.emit('rootsConsentRequested', request);
    return settled;
  }

  /** The user's answer. Throws when the question is no longer open (answered, expired, withdrawn). */
  answer(id: string, answer: RootsConsentAnswer): RootsConsentRequest {
    const pending = this.byId.get(id);
    if (!pending) throw new HostCallError('invalid_input', 'This question was already answered, expired or withdrawn.');
    this.options.onAnswer(pending.request, answer);
    this.settle(id, answer.share ? 'shared' : 'declined');
    return pending.request;
  }

  /**
   * The same answer to every open question of a group, at once (their decisions are told to servers
   * together). Returns the questions answered; throws when none of the group is open any more.
   */
  answerGroup(groupId: string, answer: RootsConsentAnswer): RootsConsentRequest[] {
    const group = [...this.byId.values()].filter((p) => p.request.groupId === groupId).map((p) => p.request);
    if (group.length === 0) throw new HostCallError('invalid_input', 'These questions were already answered, expired or withdrawn.');
    const answerAll = () => {
      for (const request of group) this.options.onAnswer(request, answer);
    };
    if (this.options.batch) this.options.batch(answerAll);
    else answerAll();
    for (const request of group) this.settle(request.id, answer.share ? 'shared' : 'declined');
    return group;
  }

  /** The server went away: its question is moot. */
  withdraw(serverId: string): void {
    const pending = this.find(serverId);
    if (pending) this.settle(pending.request.id, 'withdrawn');
  }

  /** Host shutdown: every open question settles as "nothing shared". */
  dispose(): void {
    for (const id of [...this.byId.keys()]) this.settle(id, 'shutdown');
  }

  private find(serverId: string): Pending | undefined {
    for (const pending of this.byId.values()) if (pending.request.serverId === serverId) return pending;
    return undefined;
  }

  private settle(id: string, outcome: RootsConsentOutcome): void {
    const pending = this.byId.get(id);
    if (!pending) return;
    this.byId.delete(id);
    clearTimeout(pending.timer);
    try {
      this.options.onSettled?.(pending.request, outcome);
    } finally {
      this.options.events.emit('rootsConsentSettled', { id, serverId: pending.request.serverId, outcome });
      pending.resolve(outcome);
    }
  }
}
