import { describe, expect, it } from 'vitest';
import { previewResult, resultPart } from './result-preview';

const caps = { text: 10, media: 8, structured: 12, other: 20, blocks: 3 };

describe('previewResult', () => {
  it('caps each piece and says how much there is, keeping small results whole', () => {
    const result = {
      content: [
        { type: 'text' as const, text: 'short' },
        { type: 'text' as const, text: 'abcdefghijklmnopqrstuvwxyz' },
        { type: 'image' as const, data: 'AAAAAAAAAAAA', mimeType: 'image/png' },
        { type: 'text' as const, text: 'beyond the block cap' },
      ],
      structuredContent: { b: 1, a: [1, 2, 3] },
    };
    const preview = previewResult(result, true, caps);
    expect(preview.blocks).toEqual([
      { type: 'text', text: 'short' },
      { type: 'text', text: 'abcdefghij', truncated: { shown: 10, total: 26 } },
      { type: 'image', mimeType: 'image/png', bytes: 9 },
      { type: 'text', text: '(1 more content blocks are not shown)' },
    ]);
    expect(preview.structured).toMatchObject({ json: '{\n  "a": [\n ', truncated: { shown: 12 }, validated: true });
    expect(preview.cut).toBe(true);
    expect(resultPart(result, 1, 10, 5)).toEqual({ text: 'klmno', offset: 10, total: 26 });
    expect(resultPart(result, 2, 0, 100)).toEqual({ text: 'AAAAAAAAAAAA', offset: 0, total: 12 });
    expect(resultPart(result, 'structured', 0, 1000)?.text).toBe('{\n  "a": [\n    1,\n    2,\n    3\n  ],\n  "b": 1\n}');
    expect(resultPart(result, 9, 0, 10)).toBeUndefined();

    expect(previewResult({ content: [{ type: 'text', text: 'ok' }] }, false, caps)).toEqual({
      blocks: [{ type: 'text', text: 'ok' }],
      resultBytes: 2,
      cut: false,
    });
  });

  it('shows unknown block kinds as JSON rather than dropping them', () => {
    const preview = previewResult({ content: [{ type: 'mystery', value: 1 } as never] }, false, caps);
    expect(preview.blocks).toEqual([{ type: 'other', json: '{"type":"mystery","v', truncated: { shown: 20, total: 28 } }]);
  });
});
