/**
 * One copy of identical catalog lists (issue #15, heap per server): servers listing the same
 * definitions share them, frozen, and one server's change never reaches another's view.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../test-support/fixtures';
import { startLogsHost } from '../../logs/test-support/logs-host';
import { waitFor } from '../wait';
import { sharedList } from './shared-lists';

const tool = (name: string, description = 'Echoes') => ({
  name,
  description,
  inputSchema: { type: 'object' as const, properties: { message: { type: 'string' } } },
});

describe('sharedList', () => {
  it('answers an identical list with the copy already held, deeply frozen; a different list stays its own', () => {
    const first = sharedList([tool('echo'), tool('add')]);
    // One server's own list is left as it is until another server shares it.
    expect(Object.isFrozen(first)).toBe(false);
    const same = sharedList([tool('echo'), tool('add')]);
    const other = sharedList([tool('echo'), tool('add', 'Adds')]);
    expect(same).toBe(first);
    expect(other).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0].inputSchema.properties.message)).toBe(true);
    expect(() => ((first[0] as { description: string }).description = 'changed')).toThrow(TypeError);
    expect(() => first.push(tool('x'))).toThrow(TypeError);
    expect(first[0].description).toBe('Echoes');
  });

  it('compares the whole list, not only its ends: a list differing in the middle stays its own', () => {
    const ends = (middle: string) => [tool('first'), tool('middle', middle), tool('last')];
    const one = sharedList(ends('One'));
    const two = sharedList(ends('Two'));
    expect(two).not.toBe(one);
    expect(sharedList(ends('Two'))).toBe(two);
    expect(sharedList(ends('One'))).toBe(one);
    // Equal as JSON with members in another order: the same definitions.
    const reordered = [tool('first'), { inputSchema: tool('x').inputSchema, description: 'One', name: 'middle' }, tool('last')];
    expect(sharedList(reordered)).toBe(one);
  });

  it('returns an empty list as it is (callers may fill an empty catalog)', () => {
    const empty: string[] = [];
    expect(sharedList(empty)).toBe(empty);
    expect(Object.isFrozen(empty)).toBe(false);
  });
});

describe('identical servers in the fleet', () => {
  it('share one tools list, and a list_changed on one gives it its own list while the other keeps the shared one', async () => {
    const { api, fleet } = startLogsHost();
    const input = (name: string) => ({ name, command: process.execPath, args: [path.join(FIXTURES_DIR, 'echo.mjs')] });
    const a = (await api.addServer(input('Echo A'))).config.id;
    const b = (await api.addServer(input('Echo B'))).config.id;
    const tools = (id: string) => fleet.connection(id)?.catalog.tools ?? [];
    await waitFor(() => tools(a).length > 0 && tools(b).length > 0, { what: 'both catalogs', timeoutMs: 25_000 });
    const shared = tools(a);
    expect(tools(b)).toBe(shared);

    await fleet.connection(a)!.callTool('add-tool', { name: 'only-on-a' });
    await waitFor(() => tools(a).some((t) => t.name === 'only-on-a'), { what: "server A's new tool" });
    expect(tools(b)).toBe(shared);
    expect(tools(b).map((t) => t.name)).not.toContain('only-on-a');
    expect(fleet.viewById(b).runtime.counts?.tools).toBe(shared.length);
  });
});
