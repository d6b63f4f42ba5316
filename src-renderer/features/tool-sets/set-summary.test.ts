import { describe, expect, it } from 'vitest';
import { membersSummary } from './set-summary';

describe('a tool set in words', () => {
  it('counts copies of a server and tools per server instead of a clause per member', () => {
    const servers = [
      ...Array.from({ length: 11 }, (_, i) => ({ id: `e${i}`, name: i === 0 ? 'Everything' : `Everything ${i + 1}` })),
      { id: 'fs', name: 'Filesystem' },
    ];
    const tools = [
      { serverId: 'm', serverName: 'Memory', tool: 'read_graph' },
      { serverId: 'm', serverName: 'Memory', tool: 'search_nodes' },
      { serverId: 'g', serverName: 'GitHub', tool: 'create_issue' },
    ];
    expect(membersSummary({ members: { servers, tools } })).toBe(
      'All of Everything ×11, Filesystem; 2 tools of Memory, create_issue of GitHub',
    );
    expect(membersSummary({ members: { servers: [], tools: [] } })).toBe('No members yet.');
  });
});
