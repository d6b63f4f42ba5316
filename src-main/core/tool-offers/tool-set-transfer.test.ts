import { describe, expect, it } from 'vitest';
import { importedToolSets } from './tool-set-transfer';

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

  it('finds none in other files, in JSONC, or in a malformed toolSets section', () => {
    expect(importedToolSets('{ "mcpServers": {} }', () => undefined)).toEqual([]);
    expect(importedToolSets('{ // comment\n "servers": {} }', () => undefined)).toEqual([]);
    expect(importedToolSets(JSON.stringify({ toolSets: [{ name: '' }] }), () => undefined)).toEqual([]);
  });
});
