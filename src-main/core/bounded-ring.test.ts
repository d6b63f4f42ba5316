import { describe, expect, it } from 'vitest';
import { BoundedRing } from './bounded-ring';

const ring = (maxItems: number, maxBytes = Number.POSITIVE_INFINITY) =>
  new BoundedRing<string>({ maxItems, maxBytes, sizeOf: (s) => s.length });

describe('BoundedRing', () => {
  it('keeps the newest items within its count cap, oldest first', () => {
    const r = ring(3);
    expect(r.newest).toBeUndefined();
    for (const s of ['a', 'b', 'c', 'd', 'e']) r.push(s);
    expect(r.size).toBe(3);
    expect(r.tail()).toEqual(['c', 'd', 'e']);
    expect(r.tail(2)).toEqual(['d', 'e']);
    expect(r.tail(-1)).toEqual([]);
    expect([...r.newestFirst()]).toEqual(['e', 'd', 'c']);
    expect(r.at(0)).toBe('c');
    expect(r.newest).toBe('e');
  });

  it('evicts the oldest beyond its size cap but always keeps the newest item', () => {
    const r = ring(100, 10);
    for (const s of ['aaaa', 'bbbb', 'cccc']) r.push(s);
    expect(r.tail()).toEqual(['bbbb', 'cccc']);
    expect(r.byteSize).toBe(8);
    r.push('x'.repeat(50));
    expect(r.tail()).toEqual(['x'.repeat(50)]);
    expect(r.byteSize).toBe(50);
  });

  it('grows on demand across wrap-arounds up to its count cap, keeping order, and clears', () => {
    const r = ring(40, 200);
    const all: string[] = [];
    for (let i = 0; i < 300; i++) {
      const s = i % 9 === 0 ? `${i}`.padEnd(30, '.') : `${i}`;
      all.push(s);
      r.push(s);
      const kept = r.tail();
      expect(kept).toEqual(all.slice(all.length - kept.length));
      expect(r.size).toBeLessThanOrEqual(40);
      expect(r.byteSize).toBe(kept.join('').length);
      expect(r.byteSize).toBeLessThanOrEqual(200);
    }
    r.clear();
    expect(r.size).toBe(0);
    expect(r.byteSize).toBe(0);
    r.push('again');
    expect(r.tail()).toEqual(['again']);
  });

  it('drops the oldest items while they qualify, down to a count, and stops at the first that does not', () => {
    const r = ring(10);
    for (const s of ['ok1', 'ok2', 'keep', 'ok3', 'ok4']) r.push(s);
    r.dropOldestWhile(0, (s) => s.startsWith('ok'));
    expect(r.tail()).toEqual(['keep', 'ok3', 'ok4']); // still the newest part, in order
    expect(r.byteSize).toBe(10);
    r.push('ok5');
    r.dropOldestWhile(2, () => true);
    expect(r.tail()).toEqual(['ok4', 'ok5']);
  });
});
