import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toolView } from './test-support/tool-factories';
import { hintedTools, TrustServerDialog } from './TrustServerDialog';

afterEach(cleanup);

describe('the Trust-all dialog', () => {
  it('warns of what the listed tools say: reaching outside systems is not called damage', () => {
    render(
      <TrustServerDialog
        serverName="Everything (demo)"
        hinted={[
          { name: 'fetch', hints: ['open-world'] },
          { name: 'search', hints: ['open-world'] },
        ]}
        onConfirm={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Trust all tools of Everything (demo)?' });
    expect(dialog.textContent).toContain('including these 2, which say they may reach outside systems.');
    expect(dialog.textContent).not.toContain('damage');
  });

  it('names both claims when the tools make both', () => {
    render(
      <TrustServerDialog
        serverName="memory"
        hinted={[{ name: 'delete_entities', hints: ['destructive', 'open-world'] }]}
        onConfirm={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByRole('alertdialog').textContent).toContain(
      'including this one, which says it may destroy or overwrite data or reach outside systems.',
    );
  });

  it('lists every tool that can do damage: destructive, changing data, or without hints (the spec defaults to destructive)', () => {
    const hinted = hintedTools([
      toolView({ name: 'read_graph', annotations: { readOnlyHint: true } }),
      toolView({ name: 'search', annotations: { readOnlyHint: true, openWorldHint: true } }),
      toolView({ name: 'delete_entities', annotations: { readOnlyHint: false, destructiveHint: true } }),
      toolView({ name: 'create_entities', annotations: { readOnlyHint: false, destructiveHint: false } }),
      toolView({ name: 'run_command', annotations: undefined }),
      toolView({ name: 'titled_only', annotations: { title: 'Titled only' } }),
    ]);
    expect(hinted).toEqual([
      { name: 'search', hints: ['open-world'] },
      { name: 'delete_entities', hints: ['destructive'] },
      { name: 'create_entities', hints: ['writes'] },
      { name: 'run_command', hints: ['unmarked'] },
      { name: 'titled_only', hints: ['unmarked'] },
    ]);
    render(<TrustServerDialog serverName="shell" hinted={hinted} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Trust all tools of shell?' });
    // Not every listed tool says so itself: the sentence does not claim they do.
    expect(dialog.textContent).toContain('including these 5, which may destroy or overwrite data, change data or reach outside systems.');
    const items = within(screen.getByRole('list', { name: 'Tools hinted as risky' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toContain('run_command — not marked read-only or non-destructive, so it may destroy data');
    expect(items).toContain('create_entities — may change data');
  });
});
