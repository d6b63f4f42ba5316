import { describe, expect, it } from 'vitest';
import { describeUnavailable } from '@contract';
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

  it('says when a set takes in servers added later', () => {
    const servers = [{ id: 'fs', name: 'Filesystem' }];
    const addedLater = { knownServerIds: ['fs'] };
    expect(membersSummary({ members: { servers, tools: [], addedLater } })).toBe('All of Filesystem; every server added later');
    expect(membersSummary({ members: { servers: [], tools: [], addedLater } })).toBe('Every server added later');
  });

  it('names what of a set is gone in the same words: copies counted, not one clause each', () => {
    const gone = Array.from({ length: 11 }, (_, i) => ({ kind: 'server' as const, label: i === 0 ? 'Everything' : `Everything ${i + 1}` }));
    expect(describeUnavailable([...gone, { kind: 'server', label: 'Filesystem' }])).toBe(
      '12 servers in this set are no longer available: Everything ×11, Filesystem. The rest of the set still applies; edit the set in Settings to drop them.',
    );
  });
});
