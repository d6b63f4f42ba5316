import { z } from 'zod';
import { IdString, method } from './method';
import type { ToolCallOrigin } from './tool-call-origin';
import type { TaskState } from './task-state';
import type { ToolCallOutcome } from './tools';

export { FINISHED_TASK_STATES, TASK_STATUSES, type TaskState, type TaskStatus, type ToolCallTask } from './task-state';

/**
 * Tasks (protocol 2025-11-25): long work that runs in the background and is polled. Two sides:
 *  - `server`: a tool call Patchbay made as a task; the server runs it, Patchbay polls
 *    (`tasks/get`), fetches the result (`tasks/result`) and can cancel it (`tasks/cancel`);
 *  - `client`: a server's sampling or elicitation request that Patchbay accepted as a task; the
 *    server polls Patchbay while the user answers the usual dialog.
 * Records are kept in the database, so a reload (and a restart) still shows them.
 */

/** What the task does. */
export type TaskKind = 'tool' | 'sampling' | 'elicitation';

/** One task, as the Tasks view and a tool card show it. */
export interface TaskView {
  /** Patchbay's id for the record. */
  id: string;
  serverId: string;
  serverName: string;
  /** The receiver's id for the task (the server's, or Patchbay's for `client` tasks). */
  taskId: string;
  /** Who runs it: the server (a tool call Patchbay polls) or Patchbay (a request the server polls). */
  side: 'server' | 'client';
  kind: TaskKind;
  /** `tool` tasks: the tool, the router's call id and who asked for the call. */
  tool?: string;
  callId?: string;
  origin?: ToolCallOrigin;
  status: TaskState;
  /** The receiver's words about where it stands ("Analyzing content..."). */
  statusMessage?: string;
  /** How it ended, in Patchbay's words (who cancelled it, why it was lost). */
  note?: string;
  createdAt: string;
  updatedAt: string;
  /** How long the receiver keeps it, from creation (null: no limit). */
  ttlMs?: number | null;
  /** How often the receiver asks to be polled. */
  pollIntervalMs?: number;
}

/** What the renderer needs at (re)connect: the newest tasks of every server (the Tasks view pages on). */
export interface TasksSnapshot {
  recent: TaskView[];
}

/** Newest tasks the snapshot carries. */
export const TASKS_IN_SNAPSHOT = 200;

const ListTasksSchema = z
  .object({
    serverId: IdString.optional(),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
const TaskIdSchema = z.object({ id: IdString }).strict();

export const taskMethods = {
  /** Running and recent tasks, newest first (of one server when given). */
  listTasks: method<typeof ListTasksSchema, TaskView[]>(ListTasksSchema),
  /**
   * Cancels a running task: `tasks/cancel` to the server for a tool call (the call ends as
   * cancelled), or — for a request the server made — the request is withdrawn and reported cancelled.
   */
  cancelTask: method<typeof TaskIdSchema, TaskView>(TaskIdSchema),
  /**
   * What a tool call run as a task returned (the preview the Tools tab showed), kept with the task; null
   * when none was kept (the call was not the user's own run, or it had not finished).
   */
  getTaskResult: method<typeof TaskIdSchema, ToolCallOutcome | null>(TaskIdSchema),
};

export interface TaskEvents {
  /** A task was created or changed (status, message, how it ended). */
  taskChanged: TaskView;
}
