import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportPreview, ImportResult } from '@contract';
import { HostCallError, MAX_IMPORT_CHARS } from '@contract';
import { ImportDialog, type ImportDialogProps } from './ImportDialog';
import { serverView } from './test-support/server-factories';

afterEach(cleanup);

const CONFIG = JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['-y', 'x'] }, remote: { type: 'ws', url: 'wss://x' } } });

const PREVIEW: ImportPreview = {
  format: 'claude-desktop',
  entries: [
    { name: 'memory', action: 'import', reason: 'Renamed from "memory" (name taken)' },
    { name: 'remote', action: 'skip', reason: 'WebSocket servers are not supported' },
  ],
};
const RESULT: ImportResult = {
  imported: [serverView({ name: 'memory 2' })],
  notes: [{ name: 'memory 2', note: 'Set MEMORY_FILE_PATH before enabling' }],
  skipped: [{ name: 'remote', reason: 'WebSocket servers are not supported' }],
};

function renderDialog(api: Partial<ImportDialogProps['api']> = {}) {
  const fake = {
    previewImport: vi.fn(async () => PREVIEW),
    applyImport: vi.fn(async () => RESULT),
    ...api,
  };
  const onOpenChange = vi.fn();
  render(<ImportDialog open onOpenChange={onOpenChange} api={fake} />);
  return { api: fake, onOpenChange, dialog: within(screen.getByRole('dialog', { name: 'Import servers' })) };
}

describe('ImportDialog', () => {
  it('previews, imports, and shows what happened', async () => {
    const { api, onOpenChange, dialog } = renderDialog();
    expect((dialog.getByRole('button', { name: 'Import 0 servers' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(dialog.getByLabelText('Configuration'), { target: { value: CONFIG } });
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Preview' })));
    expect(api.previewImport).toHaveBeenCalledWith({ text: CONFIG });

    const rows = dialog
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['memoryWill import — Renamed from "memory" (name taken)', 'remoteSkip: WebSocket servers are not supported']);
    const importButton = dialog.getByRole('button', { name: 'Import 1 server' }) as HTMLButtonElement;
    expect(importButton.disabled).toBe(false);

    await act(async () => fireEvent.click(importButton));
    expect(api.applyImport).toHaveBeenCalledWith({ text: CONFIG });
    expect(dialog.getByRole('status').textContent).toBe('Imported 1 server: memory 2');
    expect(dialog.getByText('memory 2: Set MEMORY_FILE_PATH before enabling')).toBeTruthy();
    expect(dialog.getByText('remote: WebSocket servers are not supported')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('shows the host parse error, and drops a stale preview when the text changes', async () => {
    const { api, dialog } = renderDialog({
      previewImport: vi
        .fn()
        .mockRejectedValueOnce(new HostCallError('invalid_input', 'Not JSON: unexpected token at 1:2'))
        .mockResolvedValue(PREVIEW),
    });
    const textbox = dialog.getByLabelText('Configuration');
    fireEvent.change(textbox, { target: { value: '{oops' } });
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Preview' })));
    expect(dialog.getByRole('alert').textContent).toBe('Not JSON: unexpected token at 1:2');
    expect((textbox as HTMLTextAreaElement).value).toBe('{oops');

    fireEvent.change(textbox, { target: { value: CONFIG } });
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Preview' })));
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(dialog.getByRole('table')).toBeTruthy();
    fireEvent.change(textbox, { target: { value: `${CONFIG} ` } });
    expect(dialog.queryByRole('table')).toBeNull();
    expect((dialog.getByRole('button', { name: 'Import 0 servers' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.previewImport).toHaveBeenCalledTimes(2);
  });

  it('reads a chosen file into the textbox', async () => {
    const { dialog } = renderDialog();
    const input = dialog.getByLabelText('Choose file…') as HTMLInputElement;
    expect(input.accept).toBe('.json,application/json');
    fireEvent.change(input, { target: { files: [new File([CONFIG], 'claude_desktop_config.json', { type: 'application/json' })] } });
    await waitFor(() => expect((dialog.getByLabelText('Configuration') as HTMLTextAreaElement).value).toBe(CONFIG));
  });

  it('says at the field when pasted text or a chosen file is larger than an import may carry, and sends nothing', async () => {
    const { api, dialog } = renderDialog();
    const textbox = dialog.getByLabelText('Configuration') as HTMLTextAreaElement;
    fireEvent.change(textbox, { target: { value: ' '.repeat(MAX_IMPORT_CHARS + 1) } });
    expect(textbox.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByText(/larger than the 512 KB an import may carry/)).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Preview' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(textbox, { target: { value: CONFIG } });
    expect(textbox.getAttribute('aria-invalid')).toBeNull();
    const big = new File(['{"mcpServers":{}}' + ' '.repeat(1_200_000)], 'big.json', { type: 'application/json' });
    fireEvent.change(dialog.getByLabelText('Choose file…'), { target: { files: [big] } });
    await waitFor(() => expect(dialog.getByText(/big\.json \(1\.1 MB\) is larger than the 512 KB an import may carry/)).toBeTruthy());
    expect(textbox.value).toBe(CONFIG);
    expect(api.previewImport).not.toHaveBeenCalled();
  });
});
