import type { TaskView } from '@contract';

/** A task record as the host reports it (a tool call on server s1 running as a task, by default). */
export function taskView(extra: Partial<TaskView> = {}): TaskView {
  return {
    id: 'rec1',
    serverId: 's1',
    serverName: 'Everything (demo)',
    taskId: 'task-1',
    side: 'server',
    kind: 'tool',
    tool: 'simulate-research-query',
    origin: 'user',
    status: 'working',
    statusMessage: 'Gathering sources...',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    pollIntervalMs: 1000,
    ...extra,
  };
}
