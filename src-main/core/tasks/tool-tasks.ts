/**
 * Tool calls run as tasks (protocol 2025-11-25): `tools/call` with `task` answers with a task at
 * once; Patchbay then polls `tasks/get` at the interval the server asks for (sooner when the server
 * sends `notifications/tasks/status`), calls `tasks/result` early when the task needs input (so the
 * server can deliver its elicitation or sampling request — the usual dialogs answer it), fetches the
 * result when the task is done, and sends `tasks/cancel` when the call is cancelled (the user, a
 * stopped chat turn, quitting). Every change is recorded in the task book.
 */
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import type { ServerState } from '../servers/connection/server-state';
import type { ToolCallIdentity, ToolCallTask, TaskView } from '@contract';
import { ServerRequestError } from '../servers/connection/request-errors';
import type { LiveServer } from '../servers/connection/live-server';
import { taskSupport } from '../tool-definition/tool-ui';
import type { TaskBook } from './task-book';
import { TaskPoll, isLost, pollDelay } from './task-poll';
import { CreateTaskResultSchema, type WireTask } from './task-wire';

/** How long Patchbay asks servers to keep a tool task (they may choose otherwise). */
export const TOOL_TASK_TTL_MS = 60 * 60 * 1000;

export interface ToolTaskRequest extends Pick<ToolCallIdentity, 'callId' | 'serverId' | 'tool' | 'origin'> {
  connection: LiveServer;
  args: Record<string, unknown>;
  /** Aborting it cancels the task on the server (`tasks/cancel`). */
  signal: AbortSignal;
  /**
   * Cancels the whole call (the router's: it aborts `signal` and records the call as cancelled), as
   * the user's Cancel on the task does. The router is made from these tasks, so it hands this over
   * with each call rather than the tasks area being made from the router.
   */
  cancel(): void;
  onProgress?: (progress: Progress) => void;
  /** Who asked for the call, named in the Protocol log. */
  initiator?: string;
  /** The task was created or changed. */
  onTask?: (task: ToolCallTask) => void;
}

export interface ToolTasksDeps {
  book: TaskBook;
  /** A line in the server's Host log (cancellations on quit, lost tasks). */
  log(serverId: string, text: string): void;
}

/** True when a call of `tool` on this connection runs as a task (see the module comment). */
export function runsAsTask(state: ServerState, tool: Parameters<typeof taskSupport>[0]): boolean {
  if (state.status !== 'ready' || state.server.era !== 'legacy') return false; // the 2026 era has no tasks
  const tasks = state.server.capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return tasks?.requests?.tools?.call !== undefined && taskSupport(tool) !== 'forbidden';
}

export class ToolTasks {
  /** Tasks being followed, by record id. */
  private readonly polls = new Map<string, TaskPoll>();
  /** How to cancel each call running as a task now, by the router's call id. */
  private readonly calls = new Map<string, () => void>();
  /** Followers of resumed tasks (nobody else awaits them). */
  private readonly following = new Set<Promise<unknown>>();

  constructor(private readonly deps: ToolTasksDeps) {}

  /** Runs the call as a task; resolves with the tool's result, rejects like `callTool` (a `ServerRequestError`). */
  async run(request: ToolTaskRequest): Promise<CallToolResult> {
    this.calls.set(request.callId, request.cancel);
    try {
      return await this.follow(request);
    } finally {
      this.calls.delete(request.callId);
    }
  }

  /** Cancels the call running as a task with this call id; false when none runs. */
  cancelCall(callId: string): boolean {
    const cancel = this.calls.get(callId);
    cancel?.();
    return cancel !== undefined;
  }

  private async follow(request: ToolTaskRequest): Promise<CallToolResult> {
    const { connection, tool } = request;
    const created = await connection.sendRequest(
      `tools/call "${tool}" (as a task)`,
      { method: 'tools/call', params: { name: tool, arguments: request.args, task: { ttl: TOOL_TASK_TTL_MS } } },
      CreateTaskResultSchema,
      {
        signal: request.signal,
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        ...(request.initiator ? { initiator: request.initiator } : {}),
      },
    );
    const record = this.deps.book.create({
      serverId: request.serverId,
      serverName: connection.name,
      taskId: created.task.taskId,
      side: 'server',
      kind: 'tool',
      tool,
      callId: request.callId,
      origin: request.origin,
      ...fromWire(created.task),
    });
    request.onTask?.(callTask(record));
    const poll = new TaskPoll({
      connection,
      record,
      first: created.task,
      signal: request.signal,
      onChange: (task) => {
        const view = this.deps.book.change(record.id, fromWire(task));
        if (view) request.onTask?.(callTask(view));
      },
    });
    this.polls.set(record.id, poll);
    try {
      const result = await poll.result();
      this.finish(record.id, poll.last, result.isError === true);
      return result;
    } catch (error) {
      this.fail(record, error, request.signal);
      throw error;
    } finally {
      this.polls.delete(record.id);
    }
  }

  /** A `notifications/tasks/status` from a server: the poll of that task looks at once. */
  noticed(serverId: string, task: WireTask): void {
    for (const poll of this.polls.values()) if (poll.serverId === serverId && poll.taskId === task.taskId) poll.nudge(task);
  }

  /**
   * Tasks a previous run of Patchbay left unfinished on this server, now ready again: asked about
   * once; one the server still knows is followed to its end (nobody waits for its result any more),
   * one it forgot is recorded as lost.
   */
  async resume(serverId: string, connection: LiveServer, signal: AbortSignal): Promise<void> {
    for (const record of this.deps.book.unfinished(serverId)) {
      if (record.side !== 'server' || this.polls.has(record.id)) continue;
      const poll = new TaskPoll({
        connection,
        record,
        signal,
        onChange: (task) => this.deps.book.change(record.id, fromWire(task)),
      });
      this.polls.set(record.id, poll);
      const following = poll
        .outcome()
        .then(
          () =>
            this.finish(
              record.id,
              poll.last,
              false,
              'Finished after Patchbay restarted; the call that started it had ended, so its result was not fetched.',
            ),
          (error: unknown) => this.fail(record, error, signal),
        )
        .finally(() => {
          this.polls.delete(record.id);
          this.following.delete(following);
        });
      this.following.add(following);
    }
  }

  /** Waits (at most `ms`) for resumed tasks to be settled, e.g. their `tasks/cancel` sent on quit. */
  async drain(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.following]), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** Cancels a followed task that no tool call waits for (one resumed after a restart); false when none. */
  cancelOrphan(recordId: string, reason: string): boolean {
    const poll = this.polls.get(recordId);
    if (!poll?.orphan) return false;
    poll.cancel(reason);
    return true;
  }

  /** The server went away (stopped, crashed, removed): its followed tasks can no longer be known. */
  serverGone(serverId: string, why: string): void {
    for (const poll of this.polls.values()) if (poll.serverId === serverId) poll.cancel(why, false);
  }

  private finish(id: string, last: WireTask | undefined, isError: boolean, note?: string): void {
    const status = last && last.status !== 'working' && last.status !== 'input_required' ? last.status : isError ? 'failed' : 'completed';
    this.deps.book.change(id, { status, ...(last?.statusMessage ? { statusMessage: last.statusMessage } : {}), ...(note ? { note } : {}) });
  }

  private fail(record: TaskView, error: unknown, signal: AbortSignal): void {
    const message = error instanceof Error ? error.message : String(error);
    const cancelled = signal.aborted || (error instanceof ServerRequestError && error.kind === 'cancelled');
    const lost = !cancelled && isLost(error);
    const reason = signal.aborted ? reasonOf(signal) : message;
    const view = this.deps.book.change(record.id, {
      status: cancelled ? 'cancelled' : lost ? 'lost' : 'failed',
      note: cancelled ? `Cancelled: ${reason}` : message,
    });
    if (cancelled) this.deps.log(record.serverId, `Cancelled task ${record.taskId} (tool "${record.tool ?? '?'}"): ${reason}`);
    else if (view?.status === 'lost')
      this.deps.log(record.serverId, `Lost task ${record.taskId} (tool "${record.tool ?? '?'}"): ${message}`);
  }
}

/** What a record takes from a task as the server describes it. */
function fromWire(task: WireTask) {
  return {
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    ...(task.ttl !== undefined ? { ttlMs: task.ttl } : {}),
    pollIntervalMs: pollDelay(task),
  };
}

function callTask(view: TaskView): ToolCallTask {
  return { id: view.id, taskId: view.taskId, status: view.status, ...(view.statusMessage ? { statusMessage: view.statusMessage } : {}) };
}

export function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled';
}
