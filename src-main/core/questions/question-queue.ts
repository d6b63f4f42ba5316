/**
 * The one queue of questions to the user: a model's tool call, a server's sampling request or
 * elicitation, a server asking for folders. The kinds keep what is theirs (what a question shows, what
 * an answer does, what is audited); this queue keeps what is common, in one place:
 * - order: the renderer shows the oldest question first, whatever its kind;
 * - "answered exactly once": a question settles once — answered, timed out, withdrawn or at quit —
 *   and any later answer is refused;
 * - time-outs: a question asked with a time-out gets its kind's default answer when nobody answers;
 * - going away: a server's questions are withdrawn when it disconnects, an aborted request's at once;
 * - delivery: `questionAsked`, `questionUpdated` and `questionSettled` to every window.
 */
import {
  type AnswerOf,
  HostCallError,
  QUESTION_KINDS,
  type Question,
  type QuestionAnswer,
  type QuestionKind,
  type QuestionOf,
  type QuestionOutcomes,
  type QuestionSettled,
} from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';

/** How a question settles: its outcome (and why), and what its kind does then (resolve, audit…). */
export interface Settlement<K extends QuestionKind> {
  outcome: QuestionOutcomes[K];
  /** Told to the renderer with `questionSettled`. */
  note?: string;
  /** Runs once the question left the queue, before `questionSettled` is sent. */
  effects?(): void;
}

/** What a kind does with each way its question can end. */
export interface QuestionHooks<K extends QuestionKind> {
  /**
   * The user's answer. Returns how the question settles, or undefined when it stays pending (the first
   * of several steps). Throws (a HostCallError) to refuse the answer; the question then stays pending.
   */
  answer(answer: AnswerOf<K>): Settlement<K> | undefined;
  /** Nobody answered within `timeoutMs`: the kind's default answer. */
  timedOut?(): Settlement<K>;
  /** Its server went away, or the request was cancelled: `note` says which. */
  withdrawn(note: string): Settlement<K>;
  /** Patchbay is quitting. */
  shutdown(note: string): Settlement<K>;
}

export interface AskOptions {
  /** Unanswered after this long, the question gets `hooks.timedOut()`; `expiresAt` tells the renderer when. */
  timeoutMs?: number;
  /** Aborted (the server cancelled its request, the caller gave up): withdrawn with `cancelNote`. */
  signal?: AbortSignal;
  cancelNote?: string;
}

/** A question as its kind builds it; the queue stamps `expiresAt` when it has a time-out. */
export type NewQuestion<K extends QuestionKind> = Omit<QuestionOf<K>, 'expiresAt'>;

interface Entry {
  question: Question;
  hooks: QuestionHooks<QuestionKind>;
  /** Stops the timer and the abort listener. */
  release(): void;
}

const QUITTING = 'Patchbay is quitting';

export class QuestionQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly closed = new Set<QuestionKind>();

  constructor(private readonly deps: { events: HostEventBus; clock: Clock }) {}

  /** Queues a question and tells the renderer; returns it as sent (with `expiresAt` when it has a time-out). */
  ask<K extends QuestionKind>(question: NewQuestion<K>, hooks: QuestionHooks<K>, options: AskOptions = {}): QuestionOf<K> {
    const { timeoutMs, signal } = options;
    const asked = (
      timeoutMs === undefined ? question : { ...question, expiresAt: new Date(Date.parse(question.requestedAt) + timeoutMs).toISOString() }
    ) as QuestionOf<K>;
    const id = asked.id;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => this.end(id, (h) => (h.timedOut ?? (() => h.withdrawn('Nobody answered in time')))()), timeoutMs);
    timer?.unref?.();
    const onAbort = () => this.end(id, (h) => h.withdrawn(options.cancelNote ?? 'The request was cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.entries.set(id, {
      question: asked,
      hooks: hooks as unknown as QuestionHooks<QuestionKind>,
      release: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      },
    });
    this.deps.events.emit('questionAsked', asked);
    return asked;
  }

  /** The user's answer: refused when the question is no longer pending or is of another kind. */
  answer(id: string, answer: QuestionAnswer): void {
    const entry = this.entries.get(id);
    if (!entry) throw notPending();
    if (entry.question.kind !== answer.kind)
      throw new HostCallError('invalid_input', `This question is a ${entry.question.kind} question, not a ${answer.kind} one.`);
    const settlement = entry.hooks.answer(answer);
    // The hook may have settled it already (e.g. with the rest of its group).
    if (settlement && this.entries.get(id) === entry) this.finish(entry, settlement);
  }

  /** Settles a pending question the kind decided on itself; false when it was settled already. */
  settle<K extends QuestionKind>(id: string, settlement: Settlement<K>): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.finish(entry, settlement as Settlement<QuestionKind>);
    return true;
  }

  /** A pending question changed (sampling moves through its steps): the renderer shows the new one. */
  update<K extends QuestionKind>(question: QuestionOf<K>): void {
    const entry = this.entries.get(question.id);
    if (!entry) return; // settled meanwhile
    entry.question = question;
    this.deps.events.emit('questionUpdated', question);
  }

  /** A pending question, or undefined once it settled. */
  get<K extends QuestionKind>(id: string, kind: K): QuestionOf<K> | undefined {
    const question = this.entries.get(id)?.question;
    return question?.kind === kind ? (question as QuestionOf<K>) : undefined;
  }

  /** The pending questions (of one kind, or all), oldest first. */
  list(): Question[];
  list<K extends QuestionKind>(kind: K): QuestionOf<K>[];
  list(kind?: QuestionKind): Question[] {
    const all = [...this.entries.values()].map((e) => e.question).filter((q) => kind === undefined || q.kind === kind);
    // Stable: questions asked in the same millisecond keep the order they were asked in.
    return all.sort((a, b) => Date.parse(a.requestedAt) - Date.parse(b.requestedAt));
  }

  /** The server went away (disconnected, stopped, removed): its questions (of these kinds) are withdrawn. */
  withdrawServer(serverId: string, note: string, kinds?: readonly QuestionKind[]): void {
    for (const entry of [...this.entries.values()]) {
      const q = entry.question;
      if (q.serverId === serverId && (!kinds || kinds.includes(q.kind))) this.end(q.id, (h) => h.withdrawn(note));
    }
  }

  /** Whether questions of this kind are refused (Patchbay is quitting): the kind answers at once instead. */
  isClosed(kind: QuestionKind): boolean {
    return this.closed.has(kind);
  }

  /** Quit: every pending question of these kinds (default: all) gets its kind's shutdown answer, and later ones are refused. */
  shutdown(kinds?: readonly QuestionKind[], note = QUITTING): void {
    for (const kind of kinds ?? QUESTION_KINDS) this.closed.add(kind);
    for (const entry of [...this.entries.values()])
      if (this.closed.has(entry.question.kind)) this.end(entry.question.id, (h) => h.shutdown(note));
  }

  private end(id: string, how: (hooks: QuestionHooks<QuestionKind>) => Settlement<QuestionKind>): void {
    const entry = this.entries.get(id);
    if (entry) this.finish(entry, how(entry.hooks));
  }

  /** The one place a question leaves the queue: exactly once, then its kind's effects, then the renderer is told. */
  private finish(entry: Entry, settlement: Settlement<QuestionKind>): void {
    const { id, kind, serverId } = entry.question;
    if (this.entries.get(id) !== entry) return;
    this.entries.delete(id);
    entry.release();
    try {
      settlement.effects?.();
    } finally {
      this.deps.events.emit('questionSettled', {
        id,
        kind,
        serverId,
        outcome: settlement.outcome,
        ...(settlement.note ? { note: settlement.note } : {}),
      } as QuestionSettled);
    }
  }
}

function notPending(): HostCallError {
  return new HostCallError('invalid_input', 'This question is no longer pending: it was already answered, timed out or withdrawn.');
}
