import { describe, expect, it, vi } from 'vitest';
import type { HostApi } from '@contract';
import { serverView } from '../servers/test-support/server-factories';
import { SETTINGS_SECTION_LABELS } from '../settings/settings-sections';
import { toolView } from '../tools/test-support/tool-factories';
import { rankItems } from './rank-items';
import { paletteItems, type PaletteContext } from './palette-items';

function context(extra: Partial<PaletteContext> = {}): PaletteContext {
  return {
    servers: [],
    conversations: [],
    tools: {},
    runningConversationId: null,
    theme: 'system',
    systemDark: false,
    mac: false,
    sectionLabels: SETTINGS_SECTION_LABELS,
    api: {} as HostApi,
    go: vi.fn(),
    request: vi.fn(),
    newConversation: vi.fn(),
    ...extra,
  };
}
const labels = (ctx: PaletteContext) => paletteItems(ctx).map((i) => `${i.group}: ${i.label}`);

describe('palette items', () => {
  it('every page and Settings section, the common actions with their shortcuts', () => {
    const items = paletteItems(context());
    expect(labels(context())).toEqual(
      expect.arrayContaining(['Pages: Chat', 'Pages: Servers', 'Pages: Roots', 'Pages: Logs', 'Pages: Settings']),
    );
    expect(labels(context())).toContain('Pages: Settings › Providers');
    expect(items.find((i) => i.label === 'New conversation')?.shortcut).toBe('Ctrl+Shift+O');
    expect(paletteItems(context({ mac: true })).find((i) => i.label === 'New conversation')?.shortcut).toBe('⇧⌘O');
    expect(labels(context())).not.toContain('Actions: Stop the answer'); // nothing runs
    expect(labels(context({ runningConversationId: 'c1' }))).toContain('Actions: Stop the answer');
  });

  it('a server offers what makes sense for its state; tools go to their server’s Tools tab', () => {
    const go = vi.fn();
    const ready = serverView({ id: 'a', name: 'alpha' }, { status: 'ready' });
    const stopped = serverView({ id: 'b', name: 'beta' }, { status: 'stopped' });
    const ctx = context({ servers: [ready, stopped], tools: { a: [toolView({ name: 'get-sum' })] }, go });
    expect(labels(ctx)).toEqual(
      expect.arrayContaining(['Servers: Stop alpha', 'Servers: Start beta', 'Servers: Restart beta', 'Tools: get-sum']),
    );
    expect(labels(ctx)).not.toContain('Servers: Start alpha');
    paletteItems(ctx)
      .find((i) => i.label === 'get-sum')!
      .run();
    expect(go).toHaveBeenCalledWith({ page: 'servers', serverId: 'a', tab: 'tools', tool: 'get-sum' });
  });

  it('Toggle theme switches to the other theme than the one shown (System follows the system)', () => {
    const updateSettings = vi.fn(async () => undefined);
    const api = { updateSettings } as unknown as HostApi;
    paletteItems(context({ api, theme: 'system', systemDark: true }))
      .find((i) => i.id === 'action:toggle-theme')!
      .run();
    expect(updateSettings).toHaveBeenLastCalledWith({ theme: 'light' });
    paletteItems(context({ api, theme: 'light' }))
      .find((i) => i.id === 'action:toggle-theme')!
      .run();
    expect(updateSettings).toHaveBeenLastCalledWith({ theme: 'dark' });
  });

  it('ranks the best match first, and its group with it; nothing typed lists every group in order', () => {
    const ctx = context({ servers: [serverView({ id: 'a', name: 'alpha' }, { status: 'ready' })] });
    const ranked = rankItems(paletteItems(ctx), 'roots');
    expect(ranked[0].group).toBe('Pages');
    expect(ranked[0].items[0].label).toBe('Roots');
    expect(rankItems(paletteItems(ctx), 'rstrt alp')[0].items[0].label).toBe('Restart alpha'); // loose: letters in order
    expect(rankItems(paletteItems(ctx), 'zzzz')).toEqual([]);
    expect(rankItems(paletteItems(ctx), '').map((g) => g.group)).toEqual(['Actions', 'Pages', 'Servers']);
  });

  it('switches the open conversation’s tool set: every other set, and back to all offered tools', () => {
    const setConversationToolSet = vi.fn();
    const set = (id: string, name: string) => ({ id, name, members: { servers: [], tools: [] }, unavailable: [] });
    const conversation = {
      id: 'c1',
      title: 'Plans',
      createdAt: '',
      updatedAt: '',
      messageCount: 0,
      serverIds: null,
      turn: 'idle' as const,
    };
    const ctx = (toolSetId?: string) =>
      context({
        toolSets: [set('s1', 'Coding'), set('s2', 'Research')],
        activeConversation: { ...conversation, ...(toolSetId ? { toolSetId } : {}) },
        api: { setConversationToolSet } as unknown as HostApi,
      });
    expect(labels(ctx()).filter((l) => l.includes('tool'))).toEqual(['Actions: Use tool set Coding', 'Actions: Use tool set Research']);
    expect(labels(ctx('s1')).filter((l) => l.includes('tool'))).toEqual([
      'Actions: Use tool set Research',
      'Actions: Use all offered tools',
    ]);
    paletteItems(ctx('s1'))
      .find((i) => i.label === 'Use all offered tools')!
      .run();
    expect(setConversationToolSet).toHaveBeenCalledWith({ id: 'c1', toolSetId: null });
    expect(labels(context()).some((l) => l.includes('tool set'))).toBe(false); // no conversation open, no sets
  });

  it('a short fuzzy search lists the tool it spells first and few others (not every tool holding those letters)', () => {
    const names = ['get-sum', 'get-env', 'echo', 'get-tiny-image', 'gzip-file-as-resource', 'simulate-research-query']
      .concat(['trigger-sampling-request', 'trigger-long-running-operation', 'get-annotated-message', 'get-resource-links'])
      .concat(['get-resource-reference', 'get-structured-content', 'toggle-simulated-logging', 'toggle-subscriber-updates']);
    const ctx = context({
      servers: [serverView({ id: 'e', name: 'Everything (demo)' }, { status: 'ready' })],
      tools: { e: names.map((name) => toolView({ serverId: 'e', serverName: 'Everything (demo)', name, title: undefined })) },
    });
    const found = rankItems(paletteItems(ctx), 'gsum').flatMap((g) => g.items.map((i) => i.label));
    expect(found[0]).toMatch(/get-sum/);
    expect(found.length).toBeLessThanOrEqual(3);
  });
});
