/**
 * The record of every task (table `tasks`, migration 014): written when a task is created and on
 * every change, each change announced as `taskChanged`. The book is the one place task views come
 * from, so the Tasks view, a tool card and a reload all see the same thing.
 */
import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import { FINISHED_TASK_STATES, TASKS_IN_SNAPSHOT, type TaskKind, type TaskState, type TaskView, type ToolCallOrigin } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';

interface TaskRow {
  id: string;
  server_id: string;
  server_name: string;
  task_id: string;
  side: 'server' | 'client';
  kind: TaskKind;
  tool_name: string | null;
  call_id: string | null;
  origin: ToolCallOrigin | null;
  status: TaskState;
  status_message: string | null;
  note: string | null;
  created_at: string;
  updated_at: string;
  ttl_ms: number | null;
  poll_interval_ms: number | null;
}

/** What a new record is made of: the view's own fields, before Patchbay has given it an id or a time. */
export type NewTask = Pick<
  TaskView,
  | 'serverId'
  | 'serverName'
  | 'taskId'
  | 'side'
  | 'kind'
  | 'tool'
  | 'callId'
  | 'origin'
  | 'status'
  | 'statusMessage'
  | 'ttlMs'
  | 'pollIntervalMs'
>;

/** A change to a record; `undefined` fields stay as they are. */
export interface TaskChange {
  status?: TaskState;
  statusMessage?: string;
  note?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
}

/** Finished records kept; older ones are pruned at start. */
const KEEP_FINISHED = 1_000;

export class TaskBook {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly byId: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly events: HostEventBus,
    private readonly clock: Clock,
  ) {
    this.insert = db.prepare(
      `INSERT INTO tasks (id, server_id, server_name, task_id, side, kind, tool_name, call_id, origin, status, status_message,
         note, created_at, updated_at, ttl_ms, poll_interval_ms)
       VALUES (@id, @server_id, @server_name, @task_id, @side, @kind, @tool_name, @call_id, @origin, @status, @status_message,
         @note, @created_at, @updated_at, @ttl_ms, @poll_interval_ms)`,
    );
    this.update = db.prepare(
      `UPDATE tasks SET status = @status, status_message = @status_message, note = @note, updated_at = @updated_at,
         ttl_ms = @ttl_ms, poll_interval_ms = @poll_interval_ms WHERE id = @id`,
    );
    this.byId = db.prepare('SELECT * FROM tasks WHERE id = ?');
  }

  /** Records a new task and announces it. */
  create(task: NewTask): TaskView {
    const now = this.clock.now().toISOString();
    const row: TaskRow = {
      id: crypto.randomUUID(),
      server_id: task.serverId,
      server_name: task.serverName,
      task_id: task.taskId,
      side: task.side,
      kind: task.kind,
      tool_name: task.tool ?? null,
      call_id: task.callId ?? null,
      origin: task.origin ?? null,
      status: task.status,
      status_message: task.statusMessage ?? null,
      note: null,
      created_at: now,
      updated_at: now,
      ttl_ms: task.ttlMs ?? null,
      poll_interval_ms: task.pollIntervalMs ?? null,
    };
    this.insert.run(row);
    const view = toView(row);
    this.events.emit('taskChanged', view);
    return view;
  }

  /** Applies a change; announces it only when something changed. A finished record never changes again. */
  change(id: string, change: TaskChange): TaskView | undefined {
    const row = this.byId.get(id) as TaskRow | undefined;
    if (!row) return undefined;
    if (FINISHED_TASK_STATES.includes(row.status)) return toView(row);
    const next: TaskRow = {
      ...row,
      status: change.status ?? row.status,
      status_message: change.statusMessage ?? row.status_message,
      note: change.note ?? row.note,
      ttl_ms: change.ttlMs !== undefined ? change.ttlMs : row.ttl_ms,
      poll_interval_ms: change.pollIntervalMs ?? row.poll_interval_ms,
    };
    const same =
      next.status === row.status &&
      next.status_message === row.status_message &&
      next.note === row.note &&
      next.ttl_ms === row.ttl_ms &&
      next.poll_interval_ms === row.poll_interval_ms;
    if (same) return toView(row);
    next.updated_at = this.clock.now().toISOString();
    this.update.run(next);
    const view = toView(next);
    this.events.emit('taskChanged', view);
    return view;
  }

  get(id: string): TaskView | undefined {
    const row = this.byId.get(id) as TaskRow | undefined;
    return row ? toView(row) : undefined;
  }

  /** Newest first (of one server when given). */
  list(serverId?: string, limit = TASKS_IN_SNAPSHOT): TaskView[] {
    const rows = this.db
      .prepare(`SELECT * FROM tasks WHERE (? IS NULL OR server_id = ?) ORDER BY created_at DESC, id LIMIT ?`)
      .all(serverId ?? null, serverId ?? null, limit) as TaskRow[];
    return rows.map(toView);
  }

  /** Records not finished yet (of one server when given), oldest first. */
  unfinished(serverId?: string): TaskView[] {
    const rows = this.db
      .prepare(`SELECT * FROM tasks WHERE status IN ('working', 'input_required') AND (? IS NULL OR server_id = ?) ORDER BY created_at, id`)
      .all(serverId ?? null, serverId ?? null) as TaskRow[];
    return rows.map(toView);
  }

  /** Keeps the newest finished records (unfinished ones always stay). */
  prune(): void {
    this.db
      .prepare(
        `DELETE FROM tasks WHERE status NOT IN ('working', 'input_required') AND id NOT IN (
           SELECT id FROM tasks WHERE status NOT IN ('working', 'input_required') ORDER BY created_at DESC LIMIT ?)`,
      )
      .run(KEEP_FINISHED);
  }
}

function toView(row: TaskRow): TaskView {
  return {
    id: row.id,
    serverId: row.server_id,
    serverName: row.server_name,
    taskId: row.task_id,
    side: row.side,
    kind: row.kind,
    ...(row.tool_name ? { tool: row.tool_name } : {}),
    ...(row.call_id ? { callId: row.call_id } : {}),
    ...(row.origin ? { origin: row.origin } : {}),
    status: row.status,
    ...(row.status_message ? { statusMessage: row.status_message } : {}),
    ...(row.note ? { note: row.note } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.ttl_ms !== null ? { ttlMs: row.ttl_ms } : {}),
    ...(row.poll_interval_ms !== null ? { pollIntervalMs: row.poll_interval_ms } : {}),
  };
}
