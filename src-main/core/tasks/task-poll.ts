/**
 * Following one task on a server to its end: `tasks/get` every `pollInterval` (or sooner when a
 * status notification nudges), `tasks/result` as soon as the task needs input (the spec's SHOULD:
 * the server delivers its questions on that request) and when it is done, `tasks/cancel` when the
 * follower is cancelled.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { TaskView } from '@contract';
import { ServerRequestError } from '../servers/connection/request-errors';
import type { LiveServer } from '../servers/connection/live-server';
import { TaskPayloadSchema, TaskSchema, isTerminal, type WireTask } from './task-wire';

/** Polling bounds: the server's interval, kept within reason (none given: once a second). */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 60_000;
const DEFAULT_POLL_MS = 1_000;
/** How long a `tasks/result` may stay open while the user answers the server's question. */
const INPUT_WAIT_MS = 60 * 60 * 1000;
/** `tasks/get` failures in a row (timeouts…) before giving up. */
const MAX_GET_FAILURES = 3;
/** The spec's error for an unknown task id. */
const INVALID_PARAMS = -32602;

/** How long to wait before the next `tasks/get` of this task. */
export function pollDelay(task: Pick<WireTask, 'pollInterval'>): number {
  const asked = task.pollInterval;
  return typeof asked === 'number' && Number.isFinite(asked) ? Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked)) : DEFAULT_POLL_MS;
}

/** True when a failure means the server no longer knows the task (or is gone). */
export function isLost(error: unknown): boolean {
  return error instanceof ServerRequestError && (error.kind === 'crashed' || error.kind === 'not-ready' || error.code === INVALID_PARAMS);
}

export interface TaskPollOptions {
  connection: LiveServer;
  record: TaskView;
  /** The task as created (absent when resuming: the first thing is a `tasks/get`). */
  first?: WireTask;
  /** Aborting cancels the task on the server. */
  signal: AbortSignal;
  onChange(task: WireTask): void;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export class TaskPoll {
  readonly serverId: string;
  readonly taskId: string;
  /** No tool call waits for this one (resumed after a restart). */
  readonly orphan: boolean;
  /** The task as last seen. */
  last: WireTask | undefined;
  private readonly own = new AbortController();
  private tellServer = true;
  private wake: (() => void) | undefined;

  constructor(private readonly options: TaskPollOptions) {
    this.serverId = options.record.serverId;
    this.taskId = options.record.taskId;
    this.orphan = options.first === undefined;
    this.last = options.first;
  }

  /** Follows the task to its end and fetches the tool's result. */
  async result(): Promise<CallToolResult> {
    return (await this.follow(true)) as CallToolResult;
  }

  /** Follows the task to its end without fetching its result. */
  async outcome(): Promise<void> {
    await this.follow(false);
  }

  /** News from the server (a status notification): applied, and the next look comes at once. */
  nudge(task: WireTask): void {
    this.apply(task);
    this.wake?.();
  }

  /** Stops following; `tasks/cancel` goes to the server unless it is gone. */
  cancel(reason: string, tellServer = true): void {
    this.tellServer = tellServer;
    this.own.abort(new Error(reason));
    this.wake?.();
  }

  private async follow(fetchResult: boolean): Promise<CallToolResult | undefined> {
    if (!this.last) this.apply(await this.get());
    let early: Promise<Settled<CallToolResult>> | undefined;
    let earlyDone: Settled<CallToolResult> | undefined;
    for (;;) {
      await this.stopIfCancelled();
      const task = this.last as WireTask;
      if (isTerminal(task.status)) {
        if (task.status === 'cancelled') throw this.error('cancelled', `the server reports it cancelled${said(task)}`);
        if (!fetchResult) return undefined;
        const settled = earlyDone ?? (early ? await early : undefined);
        if (settled?.ok) return settled.value;
        return this.fetchResult(undefined);
      }
      if (fetchResult && task.status === 'input_required' && !early) {
        early = settle(this.fetchResult(INPUT_WAIT_MS));
        void early.then((done) => {
          earlyDone = done;
          if (!done.ok) early = earlyDone = undefined; // asked again when the task next needs input
          this.wake?.();
        });
      }
      await this.sleep(pollDelay(task));
      await this.stopIfCancelled();
      // tasks/result only answers once the task is done: the result is in, one last look records how it ended.
      if (earlyDone?.ok) {
        const final = await this.get().catch(() => undefined);
        if (final) this.apply(final);
        return earlyDone.value;
      }
      this.apply(await this.getWithRetries());
    }
  }

  private apply(task: WireTask): void {
    if (task.taskId !== this.taskId) return;
    // A finished task never changes again (the spec's MUST); a late report cannot undo it.
    if (this.last && isTerminal(this.last.status) && !isTerminal(task.status)) return;
    const changed = this.last?.status !== task.status || this.last?.statusMessage !== task.statusMessage;
    this.last = task;
    if (changed) this.options.onChange(task);
  }

  private get(): Promise<WireTask> {
    return this.options.connection.sendRequest('tasks/get', { method: 'tasks/get', params: { taskId: this.taskId } }, TaskSchema, {
      signal: this.own.signal,
    });
  }

  private async getWithRetries(): Promise<WireTask> {
    for (let failures = 1; ; failures++) {
      try {
        return await this.get();
      } catch (error) {
        if (isLost(error) || this.cancelled() || failures >= MAX_GET_FAILURES) throw error;
        await this.sleep(pollDelay(this.last ?? {}));
      }
    }
  }

  private async fetchResult(waitMs: number | undefined): Promise<CallToolResult> {
    const payload = await this.options.connection.sendRequest(
      'tasks/result',
      { method: 'tasks/result', params: { taskId: this.taskId } },
      TaskPayloadSchema,
      { signal: this.own.signal, ...(waitMs ? { timeoutMs: waitMs, maxTotalTimeoutMs: waitMs } : {}) },
    );
    if (!Array.isArray(payload.content)) throw this.error('failed', 'its result is not a tool result (no content)');
    return payload as CallToolResult;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.options.signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.options.signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  private cancelled(): boolean {
    return this.options.signal.aborted || this.own.signal.aborted;
  }

  /** Cancelled (by the caller or `cancel()`): tells the server, then fails as cancelled. */
  private async stopIfCancelled(): Promise<void> {
    if (!this.cancelled()) return;
    const signal = this.options.signal.aborted ? this.options.signal : this.own.signal;
    const reason = signal.reason instanceof Error ? signal.reason.message : 'cancelled';
    if (this.tellServer && !(this.last && isTerminal(this.last.status))) {
      this.own.abort(); // ends any open tasks/result
      const answer = await this.options.connection
        .sendRequest('tasks/cancel', { method: 'tasks/cancel', params: { taskId: this.taskId } }, TaskSchema, { timeoutMs: 5_000 })
        .catch(() => undefined);
      // Recorded by the caller, with who cancelled it.
      if (answer?.taskId === this.taskId) this.last = answer;
    }
    throw this.error('cancelled', reason);
  }

  private error(kind: 'cancelled' | 'failed', why: string): ServerRequestError {
    const { connection, record } = this.options;
    return new ServerRequestError(
      kind,
      `The task of tool "${record.tool ?? '?'}" on server "${connection.name}" ${kind === 'cancelled' ? 'was cancelled' : 'failed'}: ${why}`,
      connection.name,
      `tasks/${kind === 'cancelled' ? 'cancel' : 'result'}`,
    );
  }
}

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function said(task: WireTask): string {
  return task.statusMessage ? ` (${task.statusMessage})` : '';
}
