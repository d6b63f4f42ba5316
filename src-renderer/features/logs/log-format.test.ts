import { describe, expect, it } from 'vitest';
import { protocolInitiator, protocolPreview } from './log-format';

describe('protocol entry text', () => {
  it('names who asked for a request and its answer (a server’s app), and nothing for ours', () => {
    expect(protocolInitiator('→ tools/call #6 — from the app of Basic app (119 B) {"name":"get-time"}')).toBe('from the app of Basic app');
    expect(protocolInitiator('← result of tools/call #6 — for the app of Basic (1) (154 B in 55 ms) {}')).toBe('for the app of Basic (1)');
    expect(protocolInitiator('→ tools/call #4 (119 B) {"name":"x — from y"}')).toBeUndefined();
    // As written now: the size with a no-break space (it never wraps).
    expect(protocolInitiator('→ tools/call #7 — from the app of Basic app (1.2\u00a0KB) {}')).toBe('from the app of Basic app');
    expect(protocolInitiator('← result of tools/call #7 — for the app of Basic app (80\u00a0B in 5 ms) {}')).toBe(
      'for the app of Basic app',
    );
  });

  it('keeps the preview after the size', () => {
    expect(protocolPreview('→ tools/call #6 — from the app of Basic app (119 B) {"a":1}')).toBe('{"a":1}');
  });
});
