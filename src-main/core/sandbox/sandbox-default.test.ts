/**
 * The sandbox is the default for a new local server: added without a choice (an import, an API call)
 * it is sandboxed where this machine can run one; unsandboxed only when asked for, or for a preset.
 */
import { describe, expect, it } from 'vitest';
import { startTestHost } from '../../test-support/test-host';
import { sandboxSupport } from './sandbox-support';

const supported = sandboxSupport().supported;
const DEFAULT = supported ? { enabled: true, network: 'allowed', hosts: [] } : { enabled: false, network: 'allowed', hosts: [] };

describe('a new local server', () => {
  it('is sandboxed by default (network allowed) where the sandbox runs; unsandboxed only when chosen', async () => {
    const { api } = startTestHost({ sandboxByDefault: true });
    const plain = await api.addServer({ transport: 'stdio', name: 'plain', command: 'node', enabled: false });
    expect(plain.config.sandbox).toEqual(DEFAULT);
    const chosen = await api.addServer({
      ...{ transport: 'stdio', name: 'chosen', command: 'node', enabled: false },
      sandbox: { enabled: false, network: 'allowed', hosts: [] },
    });
    expect(chosen.config.sandbox?.enabled ?? false).toBe(false);
    // An edit that says nothing of the sandbox keeps it.
    const edited = await api.updateServer({
      id: plain.config.id,
      server: { transport: 'stdio', name: 'plain', command: 'node2', enabled: false },
    });
    expect(edited.config.sandbox).toEqual(DEFAULT);
  });

  it('from an import is sandboxed by default; a preset (the app’s own code, its data in the data directory) is not', async () => {
    const { api } = startTestHost({ sandboxByDefault: true });
    const text = JSON.stringify({ mcpServers: { imported: { command: 'node', args: ['server.js'] } } });
    const result = await api.applyImport({ text });
    expect(result.imported.map((view) => view.config.sandbox)).toEqual([DEFAULT]);
    const preset = await api.addPresetServer({ preset: 'memory' });
    expect(preset.config.sandbox?.enabled ?? false).toBe(false);
    await api.stopServer({ id: preset.config.id });
  });

  it('is unsandboxed by default where the host says so (sandboxByDefault off)', async () => {
    const { api } = startTestHost({ sandboxByDefault: false });
    const plain = await api.addServer({ transport: 'stdio', name: 'plain', command: 'node', enabled: false });
    expect(plain.config.sandbox?.enabled ?? false).toBe(false);
  });
});
