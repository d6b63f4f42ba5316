/**
 * The wire shapes of tasks (protocol 2025-11-25). The v2 SDK keeps the task messages for 2025-era
 * peers as types only (no client methods, no exported schemas), so the few result schemas Patchbay
 * needs are declared here, loosely (servers add fields), and requests go through the connection's
 * generic `sendRequest`.
 */
import type { Task } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { TASK_STATUSES, type TaskStatus } from '@contract';

/** `_meta` key tying a message to its task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export const TaskSchema = z.looseObject({
  taskId: z.string().min(1).max(500),
  status: z.enum(TASK_STATUSES),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string().optional(),
  ttl: z.number().nullable().optional(),
  pollInterval: z.number().optional(),
});
export type WireTask = z.infer<typeof TaskSchema>;

/** The answer to a task-augmented request: the task, not the result. */
export const CreateTaskResultSchema = z.looseObject({ task: TaskSchema });
/** `tasks/result` answers with the underlying request's result (a CallToolResult for tools/call). */
export const TaskPayloadSchema = z.looseObject({});

/** The `task` params of a task-augmented request, when it is one. */
export function taskParams(params: unknown): { ttl?: number } | undefined {
  const task = (params as { task?: unknown } | undefined)?.task;
  if (task === null || typeof task !== 'object') return undefined;
  const ttl = (task as { ttl?: unknown }).ttl;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? { ttl } : {};
}

/** States a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A spec `Task` for a task Patchbay runs (what `tasks/get` answers). */
export function wireTask(task: {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  updatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
}): Task {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.updatedAt,
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
}
