/**
 * Requests a server makes of Patchbay as tasks (protocol 2025-11-25, client `tasks` capability): a
 * task-augmented `sampling/createMessage` or `elicitation/create` is answered at once with a task,
 * while the request itself runs on through the usual handler (the Sampling request or "asks…"
 * dialog). The server then polls `tasks/get`, waits on `tasks/result`, may list (`tasks/list`) or
 * cancel (`tasks/cancel`) — each server sees only its own tasks.
 */
import { ProtocolError, type CreateTaskResult, type Result, type Task } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import type { TaskKind, TaskStatus } from '@contract';
import type { Clock } from '../clock';
import type { ServerRef } from '../server-fleet/connection-plugins';
import type { TaskBook } from './task-book';
import { RELATED_TASK, wireTask } from './task-wire';

/** The spec's error for an unknown or finished task. */
const INVALID_PARAMS = -32602;
/** What Patchbay keeps a task for when the server asks for no particular time, and the bounds it accepts. */
const DEFAULT_TTL_MS = 60 * 60 * 1000;
const MIN_TTL_MS = 60 * 1000;
const MAX_TTL_MS = 24 * 60 * 60 * 1000;
/** How often the server may poll. */
const POLL_INTERVAL_MS = 1_000;

type Outcome = { ok: true; result: Result } | { ok: false; code: number; message: string };

interface ClientTask {
  recordId: string;
  server: ServerRef;
  kind: TaskKind;
  taskId: string;
  status: TaskStatus;
  statusMessage: string;
  createdAt: string;
  updatedAt: string;
  ttlMs: number;
  controller: AbortController;
  outcome: Promise<Outcome>;
}

export interface ClientTasksDeps {
  book: TaskBook;
  clock: Clock;
  log(serverId: string, text: string): void;
}

export class ClientTasks {
  private readonly tasks = new Map<string, ClientTask>();
  private closed = false;

  constructor(private readonly deps: ClientTasksDeps) {}

  /** Accepts a request as a task: answers with it now, runs `run` (the usual handler) in the background. */
  accept(server: ServerRef, kind: TaskKind, ttl: number | undefined, run: (signal: AbortSignal) => Promise<Result>): CreateTaskResult {
    if (this.closed) throw new ProtocolError(-1, 'Patchbay is quitting');
    const now = this.deps.clock.now().toISOString();
    const taskId = crypto.randomUUID();
    const ttlMs = Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ttl ?? DEFAULT_TTL_MS));
    const statusMessage =
      kind === 'sampling' ? 'Waiting for the user to review it in Patchbay' : 'Waiting for the user to answer in Patchbay';
    const record = this.deps.book.create({
      serverId: server.id,
      serverName: server.name,
      taskId,
      side: 'client',
      kind,
      status: 'working',
      statusMessage,
      ttlMs,
      pollIntervalMs: POLL_INTERVAL_MS,
    });
    const controller = new AbortController();
    const task: ClientTask = {
      recordId: record.id,
      server,
      kind,
      taskId,
      status: 'working',
      statusMessage,
      createdAt: now,
      updatedAt: now,
      ttlMs,
      controller,
      outcome: Promise.resolve({ ok: false, code: -1, message: '' }),
    };
    task.outcome = run(controller.signal).then(
      (result): Outcome => {
        this.settle(task, 'completed', kind === 'sampling' ? 'Answered' : 'Answered by the user');
        return { ok: true, result };
      },
      (error: unknown): Outcome => {
        const code = error instanceof ProtocolError ? error.code : -32603;
        const message = error instanceof Error ? error.message : String(error);
        this.settle(task, controller.signal.aborted ? 'cancelled' : 'failed', message);
        return { ok: false, code, message };
      },
    );
    this.tasks.set(taskId, task);
    // Forgotten once its lifetime is over (the spec lets the receiver delete it then).
    setTimeout(() => this.tasks.delete(taskId), ttlMs).unref?.();
    return { task: this.wire(task) };
  }

  /** `tasks/get`. */
  get(server: ServerRef, taskId: string): Task {
    return this.wire(this.find(server, taskId));
  }

  /** `tasks/result`: waits for the end; the request's own result, or its error. */
  async result(server: ServerRef, taskId: string): Promise<Result> {
    const task = this.find(server, taskId);
    const outcome = await task.outcome;
    if (!outcome.ok) throw new ProtocolError(outcome.code, outcome.message);
    return { ...outcome.result, _meta: { ...(outcome.result._meta ?? {}), [RELATED_TASK]: { taskId } } };
  }

  /** `tasks/list`: this server's tasks (one page: Patchbay keeps few). */
  list(server: ServerRef): { tasks: Task[] } {
    return { tasks: [...this.tasks.values()].filter((t) => t.server.id === server.id).map((t) => this.wire(t)) };
  }

  /** `tasks/cancel` from the server. */
  cancel(server: ServerRef, taskId: string): Task {
    const task = this.find(server, taskId);
    if (task.status !== 'working' && task.status !== 'input_required')
      throw new ProtocolError(INVALID_PARAMS, `Task ${taskId} is already ${task.status}`);
    this.abort(task, `Server "${server.name}" cancelled it`);
    return this.wire(task);
  }

  /** The user cancelled it in the Tasks view; false when Patchbay runs no such task. */
  cancelRecord(recordId: string): boolean {
    const task = [...this.tasks.values()].find((t) => t.recordId === recordId);
    if (!task || (task.status !== 'working' && task.status !== 'input_required')) return false;
    this.abort(task, 'Cancelled by the user in Patchbay');
    return true;
  }

  /** The server went away: its running tasks end (it can no longer ask for them). */
  serverGone(serverId: string, why: string): void {
    for (const task of this.tasks.values()) {
      if (task.server.id !== serverId) continue;
      if (task.status === 'working' || task.status === 'input_required') this.abort(task, why);
      this.tasks.delete(task.taskId);
    }
  }

  /** Quit: every running task is cancelled (and said so in its server's log). */
  dispose(): void {
    this.closed = true;
    for (const task of this.tasks.values()) {
      if (task.status !== 'working' && task.status !== 'input_required') continue;
      this.abort(task, 'Patchbay is quitting');
      this.deps.log(task.server.id, `Cancelled task ${task.taskId} (${task.kind} request): Patchbay is quitting`);
    }
  }

  private abort(task: ClientTask, why: string): void {
    this.settle(task, 'cancelled', why);
    task.controller.abort(new Error(why));
  }

  private settle(task: ClientTask, status: TaskStatus, message: string): void {
    if (task.status !== 'working' && task.status !== 'input_required') return;
    task.status = status;
    task.statusMessage = message;
    task.updatedAt = this.deps.clock.now().toISOString();
    this.deps.book.change(task.recordId, { status, statusMessage: message });
  }

  private find(server: ServerRef, taskId: string): ClientTask {
    const task = this.tasks.get(taskId);
    // Another server's task is as unknown to this one as a made-up id.
    if (!task || task.server.id !== server.id) throw new ProtocolError(INVALID_PARAMS, `Failed to retrieve task: Task not found`);
    return task;
  }

  private wire(task: ClientTask): Task {
    return wireTask({ ...task, pollIntervalMs: POLL_INTERVAL_MS });
  }
}
