import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { definitionOf } from '../tool-definition/definition';
import { diffDefinitions } from './definition-diff';

const tool = (extra: Partial<Tool> = {}): Tool => ({
  name: 'read',
  description: 'Reads',
  inputSchema: { type: 'object', properties: { p: { type: 'string' } } },
  ...extra,
});

describe('definition diffs', () => {
  it('diff line by line, showing only what changed', () => {
    const diff = diffDefinitions(definitionOf(tool()), definitionOf(tool({ description: 'Reads everything' })));
    expect(diff.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'removed', text: '  "description": "Reads",' },
      { kind: 'added', text: '  "description": "Reads everything",' },
    ]);
  });
});
