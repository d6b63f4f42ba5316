import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HostCallError } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { TasksPanel } from './TasksPanel';
import { taskView } from './test-support/task-factories';

afterEach(cleanup);

const row = (name: string) => screen.getByRole('listitem', { name });

describe('TasksPanel', () => {
  it('lists running and recent tasks of its server, follows changes, and Cancel asks the host', async () => {
    const running = taskView();
    const older = taskView({
      id: 'rec0',
      taskId: 'task-0',
      side: 'client',
      kind: 'elicitation',
      tool: undefined,
      origin: undefined,
      status: 'completed',
      statusMessage: undefined,
      createdAt: '2025-12-31T00:00:00.000Z',
    });
    const elsewhere = taskView({ id: 'recX', serverId: 's2', tool: 'other-tool' });
    const host = fakeHost({ tasks: { recent: [running, elsewhere] }, replies: { listTasks: () => [older], cancelTask: () => undefined } });
    await renderWithHost(<TasksPanel serverId="s1" serverName="Everything (demo)" />, host);

    const live = row('Task simulate-research-query: Working');
    expect(live.textContent).toContain('run by you');
    expect(live.textContent).toContain('Gathering sources...');
    expect(row('Task Question for you: Completed').textContent).toContain('run by Patchbay for the server');
    expect(screen.queryByRole('listitem', { name: /other-tool/ })).toBeNull();
    expect(host.of('listTasks')).toEqual([{ serverId: 's1', limit: 200 }]);

    fireEvent.click(within(live).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(host.of('cancelTask')).toEqual([{ id: 'rec1' }]));
    act(() => host.emit({ name: 'taskChanged', payload: { ...running, status: 'cancelled', note: 'Cancelled: Cancelled by the user' } }));
    const cancelled = row('Task simulate-research-query: Cancelled');
    expect(cancelled.textContent).toContain('Cancelled: Cancelled by the user');
    expect(within(cancelled).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.getByText('No task is running.')).toBeTruthy();
  });

  it('says why a Cancel failed, and why the list could not be read', async () => {
    const host = fakeHost({
      tasks: { recent: [taskView()] },
      replies: {
        listTasks: () => {
          throw new HostCallError('storage', 'The database is locked.');
        },
        cancelTask: () => {
          throw new HostCallError('invalid_input', 'That task has already ended.');
        },
      },
    });
    await renderWithHost(<TasksPanel serverId="s1" serverName="Everything (demo)" />, host);
    await waitFor(() => expect(screen.getByText('The database is locked.')).toBeTruthy());
    const live = row('Task simulate-research-query: Working');
    fireEvent.click(within(live).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(live.textContent).toContain('That task has already ended.'));
  });
});
