/**
 * Tasks, composed for host.ts: the task book (records, events), tool calls run as tasks (for the
 * router), requests servers make of Patchbay as tasks, the connection plugin that declares and
 * serves the client side, the contract's handlers, the snapshot, and the quit path (every running
 * task cancelled, each in its server's Host log).
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { HostCallError, FINISHED_TASK_STATES, type HandlersFor, type taskMethods, type TasksSnapshot } from '@contract';
import type { Clock } from '../clock';
import type { HostEventBus } from '../events';
import type { ConnectionPlugin, ServerRef } from '../server-fleet/connection-plugins';
import type { RequestHandler } from '../servers/sdk-internals/host-client';
import type { LiveServer } from '../servers/connection/live-server';
import { ClientTasks } from './client-tasks';
import { TaskBook } from './task-book';
import { TaskResults } from './task-results';
import { TaskSchema, taskParams } from './task-wire';
import { ToolTasks, reasonOf } from './tool-tasks';

export interface TasksAreaDeps {
  db: Database.Database;
  events: HostEventBus;
  clock: Clock;
  connection(serverId: string): LiveServer | undefined;
  /** A line in a server's Host log. */
  log(serverId: string, text: string): void;
}

export interface TasksArea {
  readonly name: 'tasks';
  readonly book: TaskBook;
  /** What tool calls run as tasks returned, kept for the Tasks tab. */
  readonly results: TaskResults;
  /** For the tool router: calls of task-capable tools run through it. */
  readonly toolTasks: ToolTasks;
  readonly plugin: ConnectionPlugin;
  readonly handlers: HandlersFor<typeof taskMethods>;
  snapshot(): { tasks: TasksSnapshot };
  /**
   * Quit, after the router cancelled its calls and before the servers stop: requests servers made as
   * tasks are cancelled, resumed tasks are cancelled on their servers (bounded wait).
   */
  dispose(): Promise<void>;
}

const TaskIdParams = z.looseObject({ taskId: z.string().min(1) });
const CursorParams = z.looseObject({ cursor: z.string().optional() });
/** What Patchbay can run as a task for a server (and only over the 2025 era: the 2026 one has no tasks). */
const CLIENT_TASK_METHODS: Record<string, 'sampling' | 'elicitation'> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};

export function createTasksArea(deps: TasksAreaDeps): TasksArea {
  const book = new TaskBook(deps.db, deps.events, deps.clock);
  // Requests servers made of a Patchbay that stopped meanwhile can never be answered.
  for (const task of book.unfinished()) {
    if (task.side === 'client') book.change(task.id, { status: 'cancelled', note: 'Patchbay stopped before it was answered' });
  }
  book.prune();
  const toolTasks = new ToolTasks({ book, log: deps.log });
  const results = new TaskResults(deps.db);
  const clientTasks = new ClientTasks({ book, clock: deps.clock, log: deps.log });
  /** Followers of tasks resumed after a restart, per server: stopped when the server goes. */
  const resumed = new Map<string, AbortController>();
  let closed = false;

  const serverGone = (server: ServerRef, why: string) => {
    resumed.get(server.id)?.abort(new Error(why));
    resumed.delete(server.id);
    toolTasks.serverGone(server.id, why);
    clientTasks.serverGone(server.id, why);
  };

  const wrapRequestHandler = (method: string, handler: RequestHandler, server: ServerRef): RequestHandler => {
    const kind = CLIENT_TASK_METHODS[method];
    if (!kind) return handler;
    return async (request, ctx) => {
      const task = taskParams(request.params);
      if (!task) return handler(request, ctx);
      return clientTasks.accept(server, kind, task.ttl, (signal) => handler(request, { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }));
    };
  };

  const plugin: ConnectionPlugin = {
    capabilities: {
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
    },
    install: (client, server) => {
      client.setRequestHandler('tasks/get', { params: TaskIdParams }, (params) => clientTasks.get(server, params.taskId));
      client.setRequestHandler('tasks/result', { params: TaskIdParams }, (params) => clientTasks.result(server, params.taskId));
      client.setRequestHandler('tasks/list', { params: CursorParams }, () => clientTasks.list(server));
      client.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params) => clientTasks.cancel(server, params.taskId));
      client.setNotificationHandler('notifications/tasks/status', { params: TaskSchema }, (params) => toolTasks.noticed(server.id, params));
    },
    wrapRequestHandler,
    onStateChange: (server, state) => {
      if (state.status !== 'ready') {
        if (state.status !== 'starting') serverGone(server, `Server "${server.name}" is ${state.status}`);
        return;
      }
      const connection = deps.connection(server.id);
      if (!connection || closed || book.unfinished(server.id).length === 0) return;
      const controller = new AbortController();
      resumed.set(server.id, controller);
      void toolTasks.resume(server.id, connection, controller.signal);
    },
    onRemoved: (server) => {
      serverGone(server, `Server "${server.name}" was removed`);
      for (const task of book.unfinished(server.id)) book.change(task.id, { status: 'lost', note: 'Its server was removed' });
    },
  };

  const handlers: HandlersFor<typeof taskMethods> = {
    listTasks: async ({ serverId, limit }) => book.list(serverId, limit),
    getTaskResult: async ({ id }) => {
      if (!book.get(id)) throw new HostCallError('invalid_input', 'There is no such task: it may have been pruned.');
      return results.get(id);
    },
    cancelTask: async ({ id }) => {
      const task = book.get(id);
      if (!task) throw new HostCallError('invalid_input', 'There is no such task.');
      if (FINISHED_TASK_STATES.includes(task.status)) throw new HostCallError('invalid_input', `That task is already ${task.status}.`);
      const reason = 'Cancelled by the user in Patchbay';
      const done =
        task.side === 'client'
          ? clientTasks.cancelRecord(id)
          : (task.callId !== undefined && toolTasks.cancelCall(task.callId)) || toolTasks.cancelOrphan(id, reason);
      if (!done) throw new HostCallError('invalid_input', `Server "${task.serverName}" is not running: start it to cancel this task.`);
      return book.get(id) ?? task;
    },
  };

  return {
    name: 'tasks',
    book,
    results,
    toolTasks,
    plugin,
    handlers,
    snapshot: () => ({ tasks: { recent: book.list() } }),
    async dispose() {
      closed = true;
      clientTasks.dispose();
      for (const [serverId, controller] of resumed) {
        controller.abort(new Error('Patchbay is quitting'));
        deps.log(serverId, `Stopped following tasks of this server: ${reasonOf(controller.signal)}`);
      }
      resumed.clear();
      await toolTasks.drain(3_000);
    },
  };
}
