/**
 * The one-time offer to existing servers, against a real host and its database: servers added before
 * the sandbox default (a host with it off) are listed the first time a host starts with it on; a
 * preset and a server already sandboxed are not; the offer is made once and a fresh install never
 * gets one.
 */
import { describe, expect, it } from 'vitest';
import { startTestHost } from '../../test-support/test-host';
import { sandboxSupport } from './sandbox-support';

const supported = sandboxSupport().supported;

describe.skipIf(!supported)('the offer to move existing servers into the sandbox', () => {
  it('lists the unsandboxed local servers once, at the first start where the sandbox is the default; never presets or remote ones', async () => {
    const before = startTestHost({ sandboxByDefault: false });
    const add = (name: string, enabled: boolean) =>
      before.api.addServer({
        ...{ transport: 'stdio', name, command: 'node', enabled: false },
        sandbox: { enabled, network: 'allowed', hosts: [] },
      });
    const old = await add('old', false);
    await add('boxed', true);
    await before.api.addServer({ transport: 'http', name: 'remote', url: 'https://example.com/mcp', enabled: false });
    const preset = await before.api.addPresetServer({ preset: 'memory' });
    await before.api.stopServer({ id: preset.config.id });
    expect((await before.api.getSnapshot()).settings.sandboxOffer).toEqual({ state: 'unset', serverIds: [] });
    await before.host.dispose();

    const after = startTestHost({ dataDir: before.dataDir, sandboxByDefault: true });
    expect((await after.api.getSnapshot()).settings.sandboxOffer).toEqual({ state: 'open', serverIds: [old.config.id] });
    // Kept as they are: settled for good, even with an unsandboxed server still there.
    await after.api.updateSettings({ sandboxOffer: { state: 'answered', serverIds: [] } });
    await after.host.dispose();
    const again = startTestHost({ dataDir: before.dataDir, sandboxByDefault: true });
    expect((await again.api.getSnapshot()).settings.sandboxOffer.state).toBe('answered');
  });

  it('is settled at once on a fresh install, so a server run unsandboxed later by choice is never offered the move', async () => {
    const fresh = startTestHost({ sandboxByDefault: true });
    expect((await fresh.api.getSnapshot()).settings.sandboxOffer).toEqual({ state: 'answered', serverIds: [] });
    await fresh.api.addServer({
      ...{ transport: 'stdio', name: 'chosen', command: 'node', enabled: false },
      sandbox: { enabled: false, network: 'allowed', hosts: [] },
    });
    await fresh.host.dispose();
    const later = startTestHost({ dataDir: fresh.dataDir, sandboxByDefault: true });
    expect((await later.api.getSnapshot()).settings.sandboxOffer.state).toBe('answered');
  });
});
