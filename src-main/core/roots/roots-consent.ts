import crypto from 'node:crypto';
import { HostCallError, type RootsConsentOutcome, type RootsConsentRequest } from '@contract';
import type { Clock } from '../clock';
import type { QuestionQueue, Settlement } from '../questions/question-queue';
import type { ServerRef } from '../server-fleet/connection-plugins';

/** The user's answer to "Share folders". `rootIds` omitted with `share` = every folder, later ones too. */
export interface RootsConsentAnswer {
  share: boolean;
  rootIds?: string[];
}

export interface RootsConsentOptions {
  questions: QuestionQueue;
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

/**
 * The "Share folders" questions: `roots` questions of the one queue (questions/), which orders them,
 * times them out and settles each exactly once. Here: at most one per server (later `roots/list`
 * requests of the same server join it), grouped while one is open, and what each end means — the
 * user's answer is persisted; a timeout or the host's shutdown shares nothing; a server that goes away
 * withdraws its question. Nothing here ever waits forever.
 */
export class RootsConsentBroker {
  /** Each open question's waiters, and how it ends, by question id. */
  private readonly open = new Map<
    string,
    { settled: Promise<RootsConsentOutcome>; ended(outcome: RootsConsentOutcome): Settlement<'roots'> }
  >();

  constructor(private readonly options: RootsConsentOptions) {}

  /** Every open question, oldest first. */
  list(): RootsConsentRequest[] {
    return this.options.questions.list('roots');
  }

  /** The open question for a server, if any. */
  openFor(serverId: string): RootsConsentRequest | undefined {
    return this.list().find((q) => q.serverId === serverId);
  }

  /** Asks the user about `server` (or joins the question already open); resolves when it settles. */
  ask(server: ServerRef): Promise<RootsConsentOutcome> {
    const existing = this.openFor(server.id);
    const joined = existing && this.open.get(existing.id);
    if (joined) return joined.settled;
    const { questions, clock, timeoutMs } = this.options;
    const id = crypto.randomUUID();
    // While a question is open, a new one joins its group: the servers one change made ask are answered in one dialog.
    const first = this.list()[0];
    let resolve!: (outcome: RootsConsentOutcome) => void;
    const settled = new Promise<RootsConsentOutcome>((r) => (resolve = r));
    const ended = (outcome: RootsConsentOutcome): Settlement<'roots'> => ({
      outcome,
      effects: () => {
        this.open.delete(id);
        try {
          this.options.onSettled?.(request, outcome);
        } finally {
          resolve(outcome);
        }
      },
    });
    // The hooks run only after `ask` returned (on an answer, the timer, a withdrawal): `request` is set by then.
    const request: RootsConsentRequest = questions.ask<'roots'>(
      {
        kind: 'roots',
        id,
        groupId: first?.groupId ?? id,
        serverId: server.id,
        serverName: server.name,
        requestedAt: clock.now().toISOString(),
      },
      {
        answer: ({ share, rootIds, wholeGroup }) => {
          const answer: RootsConsentAnswer = { share, ...(rootIds ? { rootIds } : {}) };
          const outcome = share ? 'shared' : 'declined';
          if (!wholeGroup) {
            this.options.onAnswer(request, answer);
            return ended(outcome);
          }
          // Every open question of the group, answered at once: their decisions are told to servers together.
          const group = this.list().filter((q) => q.groupId === request.groupId);
          const answerAll = () => {
            for (const member of group) this.options.onAnswer(member, answer);
          };
          if (this.options.batch) this.options.batch(answerAll);
          else answerAll();
          for (const member of group) {
            const other = member.id !== id && this.open.get(member.id);
            if (other) questions.settle(member.id, other.ended(outcome));
          }
          return ended(outcome);
        },
        timedOut: () => ended('timed-out'),
        withdrawn: () => ended('withdrawn'),
        shutdown: () => ended('shutdown'),
      },
      { timeoutMs },
    );
    this.open.set(id, { settled, ended });
    return settled;
  }

  /** The user's answer (as through the queue). Throws when the question is no longer open (answered, expired, withdrawn). */
  answer(id: string, answer: RootsConsentAnswer): void {
    this.options.questions.answer(id, { kind: 'roots', ...answer });
  }

  /**
   * The same answer to every open question of a group, at once (as through the queue, with `wholeGroup`).
   * Returns the questions answered; throws when none of the group is open any more.
   */
  answerGroup(groupId: string, answer: RootsConsentAnswer): RootsConsentRequest[] {
    const group = this.list().filter((q) => q.groupId === groupId);
    if (group.length === 0) throw new HostCallError('invalid_input', 'These questions were already answered, expired or withdrawn.');
    this.options.questions.answer(group[0].id, { kind: 'roots', ...answer, wholeGroup: true });
    return group;
  }

  /** The server went away: its question is moot. */
  withdraw(serverId: string): void {
    this.options.questions.withdrawServer(serverId, 'the server went away', ['roots']);
  }

  /** Host shutdown: every open question settles as "nothing shared". */
  dispose(): void {
    this.options.questions.shutdown(['roots']);
  }
}
