import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TrustServerDialog } from './TrustServerDialog';

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
});
