import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackupState } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { useAppStore } from '../../stores/use-app-store';
import { BackupPanel } from './BackupPanel';

/** The panel as the Settings page mounts it. */
function Panel() {
  return <BackupPanel api={useAppStore((s) => s.api)} />;
}

afterEach(cleanup);

const backup = {
  name: 'patchbay-backup-2026.zip',
  path: '/data/backups/patchbay-backup-2026.zip',
  bytes: 2_500_000,
  createdAt: new Date().toISOString(),
};

describe('BackupPanel', () => {
  it('exports servers saying which secrets were left out, backs up, and stages a restore for the next start', async () => {
    let state: BackupState = { directory: '/data/backups', backups: [], canRestart: false };
    const host = fakeHost({
      replies: {
        getBackupState: () => state,
        exportServers: (input: { format: string }) => ({
          format: input.format,
          fileName: 'patchbay-servers.json',
          text: '{"patchbay":{}}',
          servers: 2,
          secretsLeftOut: ['github: GITHUB_TOKEN'],
          notes: [],
        }),
        createBackup: () => {
          state = { ...state, backups: [backup] };
          return backup;
        },
        stageRestore: () =>
          (state = { ...state, pendingRestore: { from: backup.name, stagedAt: backup.createdAt, schemaVersion: 9, servers: 2 } }),
        cancelRestore: () => (state = { ...state, pendingRestore: undefined }),
      },
    });
    await renderWithHost(<Panel />, host);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Export as Patchbay JSON' })));
    expect(host.of('exportServers')).toEqual([{ format: 'patchbay' }]);
    expect(screen.getByText(/Exported 2 servers as patchbay-servers\.json\. Left out, to be filled: github: GITHUB_TOKEN\./)).toBeTruthy();
    expect((screen.getByLabelText('Exported text') as HTMLTextAreaElement).value).toBe('{"patchbay":{}}');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Back up now' })));
    const item = within(screen.getByRole('listitem', { name: backup.name }));
    expect(item.getByText('2.4 MB')).toBeTruthy();
    await act(async () => fireEvent.click(item.getByRole('button', { name: 'Restore' })));
    expect(host.of('stageRestore')).toEqual([{ backup: backup.name }]);
    expect(screen.getByText(`The backup ${backup.name} will be restored when Patchbay starts next.`)).toBeTruthy();
    expect(screen.getByText(/Stop Patchbay and start it again to finish\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restart now' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel restore' })));
    expect(screen.queryByText(/will be restored/)).toBeNull();
  });
});
