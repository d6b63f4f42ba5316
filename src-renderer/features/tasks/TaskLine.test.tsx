import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCallTask } from '@contract';
import { TaskLine } from './TaskLine';

afterEach(cleanup);

const task = (status: ToolCallTask['status'], statusMessage?: string): ToolCallTask => ({
  id: 'c1',
  taskId: 't1',
  status,
  ...(statusMessage ? { statusMessage } : {}),
});

describe('a call’s task line', () => {
  it('shows the server’s progress while it runs, and not a stale "Generating…" once it completed', () => {
    render(<TaskLine task={task('working', 'Generating…')} />);
    expect(screen.getByRole('status', { name: 'Task status' }).textContent).toBe('Task Working — Generating…');
    cleanup();
    render(<TaskLine task={task('completed', 'Generating…')} />);
    expect(screen.getByRole('status', { name: 'Task status' }).textContent).toBe('Task Completed');
    cleanup();
    render(<TaskLine task={task('failed', 'Out of quota')} />);
    expect(screen.getByRole('status', { name: 'Task status' }).textContent).toBe('Task Failed — Out of quota');
  });
});
