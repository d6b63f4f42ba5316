import { describe, expect, it } from 'vitest';
import { LastSent } from './last-sent';

describe('LastSent', () => {
  it('says a snapshot changed once per different JSON, and keeps 44 characters however large the snapshot', () => {
    const last = new LastSent();
    const tools = Array.from({ length: 2_000 }, (_, i) => ({ serverId: `s${i % 50}`, tool: `tool-${i}`, description: 'x'.repeat(150) }));
    const big = JSON.stringify({ tools });
    expect(big.length).toBeGreaterThan(300_000);

    expect(last.changed(big)).toBe(true);
    expect(last.changed(big)).toBe(false);
    expect(last.kept.length).toBe(44);
    expect(last.changed(JSON.stringify({ tools: tools.slice(1) }))).toBe(true);
    expect(last.changed(big)).toBe(true);
    expect(last.changed(big)).toBe(false);
  });
});
