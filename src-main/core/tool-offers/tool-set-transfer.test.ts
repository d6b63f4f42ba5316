import { describe, expect, it } from 'vitest';
import { exportToolSets, importedToolSets } from './tool-set-transfer';

const ids: Record<string, string> = { docs: 'id-docs' };

describe('tool sets from an export', () => {
  it('matches members by server name and names what has no server here', () => {
    const text = JSON.stringify({
      patchbay: { format: 'servers', version: 1 },
      servers: [],
      toolSets: [
        {
          name: 'Research',
          servers: ['docs', 'gone'],
          tools: [
            { server: 'docs', tool: 'search' },
            { server: 'shell', tool: 'run' },
          ],
        },
      ],
    });
    expect(importedToolSets(text, (name) => ids[name])).toEqual([
      {
        name: 'Research',
        members: { servers: ['id-docs'], tools: [{ serverId: 'id-docs', tool: 'search' }] },
        leftOut: ['gone', 'run on shell'],
      },
    ]);
  });

  it('carries "servers added later" both ways (there: the servers added after the import)', () => {
    const exported = exportToolSets([
      {
        id: 's',
        name: 'Growing',
        members: { servers: [{ id: 'id-docs', name: 'docs' }], tools: [], addedLater: { knownServerIds: ['id-docs'] } },
      },
      { id: 't', name: 'Fixed', members: { servers: [], tools: [] } },
    ]);
    expect(exported).toEqual([
      { name: 'Growing', servers: ['docs'], tools: [], addedLater: true },
      { name: 'Fixed', servers: [], tools: [] },
    ]);
    expect(importedToolSets(JSON.stringify({ toolSets: exported }), (name) => ids[name]).map((set) => set.members)).toEqual([
      { servers: ['id-docs'], tools: [], addedLater: true },
      { servers: [], tools: [] },
    ]);
  });

  it('finds none in other files, in JSONC, or in a malformed toolSets section', () => {
    expect(importedToolSets('{ "mcpServers": {} }', () => undefined)).toEqual([]);
    expect(importedToolSets('{ // comment\n "servers": {} }', () => undefined)).toEqual([]);
    expect(importedToolSets(JSON.stringify({ toolSets: [{ name: '' }] }), () => undefined)).toEqual([]);
  });
});
