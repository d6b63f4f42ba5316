import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LaunchProblem, ServerDiagnosis } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ServersPage } from './ServersPage';
import { deferred, serverView } from './test-support/server-factories';

afterEach(cleanup);

const problem: LaunchProblem = {
  kind: 'command-not-found',
  command: 'uvx',
  searched: ['/usr/local/bin', '/usr/bin', '/bin'],
  fixes: [
    {
      kind: 'install',
      tool: 'uv',
      url: 'https://docs.astral.sh/uv/getting-started/installation/',
      text: 'Install uv (it includes uvx), then restart the server',
    },
    { kind: 'hint', text: 'If uvx is installed somewhere else, use its full path as the Command' },
    { kind: 'edit', field: 'command', text: 'Edit the server’s Command' },
  ],
};

const failed = serverView(
  { id: 'n1', name: 'notes', command: 'uvx', args: ['notes-mcp'] },
  {
    status: 'error',
    reason: 'Server "notes" could not be started: `uvx` not found on PATH (searched: /usr/local/bin, /usr/bin, /bin)',
    launch: problem,
  },
);

function diagnosis(steps: ServerDiagnosis['steps'], done = false, extra: Partial<ServerDiagnosis> = {}): ServerDiagnosis {
  return { runId: 'run-1', serverId: 'n1', serverName: 'notes', startedAt: '2026-01-01T00:00:00Z', done, ok: false, steps, ...extra };
}

describe('launch problems and Diagnose', () => {
  it('a server that could not be launched says what was looked for, where, and what to do; Edit opens the form at Command', async () => {
    await renderWithHost(<ServersPage />, fakeHost({ servers: [failed] }));
    const row = within(screen.getByRole('listitem', { name: 'notes' }));
    const why = within(row.getByRole('region', { name: 'Why notes could not be launched' }));
    expect(why.getByText('uvx').tagName).toBe('CODE');
    expect(why.getByText('Searched 3 folders (PATH)')).toBeTruthy();
    expect(
      within(why.getByRole('list', { name: 'Folders searched' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(problem.searched);
    const install = why.getByRole('link', { name: 'how to install uv' });
    expect(install.getAttribute('href')).toBe('https://docs.astral.sh/uv/getting-started/installation/');
    expect(install.getAttribute('rel')).toContain('noopener');
    expect(why.getByText(/use its full path as the Command/)).toBeTruthy();

    fireEvent.click(why.getByRole('button', { name: 'Edit the server’s Command' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit notes' });
    await act(async () => undefined);
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Command'));
  });

  it('Diagnose shows each step as the host reports it, then where it failed and the fixes; Run again runs it again', async () => {
    const first = deferred<ServerDiagnosis>();
    const host = fakeHost({ servers: [failed], replies: { diagnoseServer: () => first.promise } });
    await renderWithHost(<ServersPage />, host);
    fireEvent.click(within(screen.getByRole('listitem', { name: 'notes' })).getByRole('button', { name: 'Diagnose' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Diagnose notes' }));
    expect(host.of('diagnoseServer')).toEqual([{ id: 'n1' }]);
    expect(dialog.getByRole('status').textContent).toBe('Diagnosing…');

    host.emit({
      name: 'serverDiagnosis',
      payload: diagnosis([
        { id: 'config', title: 'Read the configuration', status: 'ok', detail: 'Command line: uvx notes-mcp', durationMs: 2 },
        { id: 'resolve', title: 'Find the command', status: 'running', detail: 'Running…' },
      ]),
    });
    const steps = () => within(dialog.getByRole('list', { name: 'Steps' })).getAllByRole('listitem', { name: /: / });
    expect(steps().map((li) => li.getAttribute('aria-label'))).toEqual(['Read the configuration: OK', 'Find the command: Running…']);

    const done = diagnosis(
      [
        { id: 'config', title: 'Read the configuration', status: 'ok', detail: 'Command line: uvx notes-mcp', durationMs: 2 },
        {
          id: 'resolve',
          title: 'Find the command',
          status: 'failed',
          detail: '`uvx` not found on PATH',
          durationMs: 14,
          list: problem.searched,
        },
        { id: 'spawn', title: 'Start the process', status: 'skipped', detail: 'Not tried: an earlier step failed.' },
      ],
      true,
      { problem },
    );
    host.emit({ name: 'serverDiagnosis', payload: done });
    await act(async () => first.resolve(done));
    expect(steps().map((li) => li.getAttribute('aria-label'))).toEqual([
      'Read the configuration: OK',
      'Find the command: Failed',
      'Start the process: Not tried',
    ]);
    expect(dialog.getByText('`uvx` not found on PATH')).toBeTruthy();
    expect(dialog.getByText('Folders searched (3)')).toBeTruthy();
    expect(dialog.getByRole('status').textContent).toBe('Failed at: Find the command');
    expect(dialog.getByRole('link', { name: 'how to install uv' })).toBeTruthy();

    // Run again: the earlier run's steps are not shown as this one's.
    const second = deferred<ServerDiagnosis>();
    host.replies.diagnoseServer = () => second.promise;
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Run again' })));
    expect(host.of('diagnoseServer')).toHaveLength(2);
    expect(dialog.queryByRole('list', { name: 'Steps' })).toBeNull();
    expect(dialog.getByRole('status').textContent).toBe('Diagnosing…');
    const fine = diagnosis([{ id: 'tools', title: 'List its tools', status: 'ok', detail: '1 tool: echo' }], true, {
      runId: 'run-2',
      ok: true,
    });
    await act(async () => second.resolve(fine));
    expect(dialog.getByRole('status').textContent).toBe('Every step worked: notes can start.');
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Start notes' })));
    expect(host.of('startServer')).toEqual([{ id: 'n1' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
