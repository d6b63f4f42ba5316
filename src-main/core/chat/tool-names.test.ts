import { describe, expect, it } from 'vitest';
import type { ChatToolRef } from '@contract';
import { API_TOOL_NAME, slug, ToolNameMap } from './tool-names';

const tool = (serverId: string, serverName: string, toolName: string): ChatToolRef => ({ serverId, serverName, toolName });

function names(map: ToolNameMap): string[] {
  return map.entries().map(([name]) => name);
}

describe('tool names offered to the model', () => {
  it('namespaces by server and keeps readable names when they are valid and unique', () => {
    const map = new ToolNameMap([tool('s1', 'Everything (demo)', 'get-sum'), tool('s2', 'memory', 'read_graph')]);
    expect(map.nameOf(tool('s1', 'Everything (demo)', 'get-sum'))).toBe('Everything_demo__get-sum');
    expect(map.nameOf(tool('s2', 'memory', 'read_graph'))).toBe('memory__read_graph');
    expect(map.resolve('Everything_demo__get-sum')).toEqual(tool('s1', 'Everything (demo)', 'get-sum'));
    expect(map.resolve('memory__nope')).toBeUndefined();
  });

  it('makes odd characters valid', () => {
    expect(slug('Mein Server: äöü/ß')).toBe('Mein_Server');
    expect(slug('日本語')).toBe('x');
    expect(slug('a.b.c')).toBe('a_b_c');
    const map = new ToolNameMap([tool('s1', 'GitHub (work) 🚀', 'repos/list.all'), tool('s2', '???', '!!!')]);
    for (const name of names(map)) expect(name).toMatch(API_TOOL_NAME);
    expect(map.nameOf(tool('s1', 'GitHub (work) 🚀', 'repos/list.all'))).toBe('GitHub_work__repos_list_all');
  });

  it('gives every member of a collision a stable hashed suffix, whatever the order', () => {
    // Same tool name on two servers whose names slug alike; and a case-only difference.
    const tools = [
      tool('id-a', 'My Server', 'search'),
      tool('id-b', 'My_Server', 'search'),
      tool('id-c', 'files', 'Read'),
      tool('id-c', 'files', 'read'),
    ];
    const first = new ToolNameMap(tools);
    const reversed = new ToolNameMap([...tools].reverse());
    expect(new Set(names(first)).size).toBe(4);
    for (const t of tools) {
      const name = first.nameOf(t)!;
      expect(name).toMatch(API_TOOL_NAME);
      expect(name).toMatch(/_[0-9a-f]{8}$/);
      expect(reversed.nameOf(t)).toBe(name); // stable across restarts (order-independent)
      expect(first.resolve(name)).toEqual(t); // routed back exactly
    }
    // The hash comes from server id + tool name: renaming another server does not move it.
    const again = new ToolNameMap([tool('id-a', 'My Server', 'search'), tool('id-b', 'My_Server', 'search')]);
    expect(again.nameOf(tools[0])).toBe(first.nameOf(tools[0]));
  });

  it('shortens long names to 64 characters, keeping them distinct', () => {
    const long = 'x'.repeat(80);
    const a = tool('s1', long, `${long}-alpha`);
    const b = tool('s1', long, `${long}-beta`);
    const map = new ToolNameMap([a, b]);
    const [na, nb] = [map.nameOf(a)!, map.nameOf(b)!];
    expect(na).toHaveLength(64);
    expect(na).toMatch(API_TOOL_NAME);
    expect(na).not.toBe(nb);
    expect(map.resolve(na)).toEqual(a);
    expect(map.resolve(nb)).toEqual(b);
  });

  it('keeps a name unique even when a plain name equals another tool’s namespaced one', () => {
    // Server "a__b" + tool "c" and server "a" + tool "b__c" both slug to a__b__c.
    const map = new ToolNameMap([tool('1', 'a__b', 'c'), tool('2', 'a', 'b__c'), tool('3', 'z', 'y')]);
    expect(new Set(names(map)).size).toBe(3);
    expect(map.nameOf(tool('3', 'z', 'y'))).toBe('z__y');
  });
});
