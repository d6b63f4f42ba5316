import { describe, expect, it } from 'vitest';
import { StderrRing } from './stderr-ring';

describe('StderrRing', () => {
  it('keeps only the most recent lines and reports each line once', () => {
    const seen: string[] = [];
    const ring = new StderrRing({ maxLines: 3, onLine: (line) => seen.push(line) });
    ring.push(Buffer.from('one\ntwo\nthr'));
    ring.push(Buffer.from('ee\r\nfour\nfive\n'));
    expect(ring.lines()).toEqual(['three', 'four', 'five']);
    expect(ring.lines(2)).toEqual(['four', 'five']);
    expect(ring.lastLine).toBe('five');
    expect(seen).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(ring.totalBytes).toBe('one\ntwo\nthree\r\nfour\nfive\n'.length);
  });

  it('grows on demand up to its line cap, keeping the newest lines in order', () => {
    const ring = new StderrRing({ maxLines: 40 });
    const all: string[] = [];
    for (let i = 0; i < 100; i++) {
      all.push(`line ${i}`);
      ring.push(Buffer.from(`line ${i}\n`));
      expect(ring.lines()).toEqual(all.slice(-40));
      expect(ring.lastLine).toBe(`line ${i}`);
    }
  });

  it('evicts by size and truncates a single over-long line', () => {
    const ring = new StderrRing({ maxLines: 100, maxBytes: 20, maxLineLength: 16 });
    ring.push(Buffer.from(`${'a'.repeat(40)}\nshort\nlast one\n`));
    expect(ring.lines()).toEqual(['short', 'last one']);
    const long = new StderrRing({ maxLineLength: 16 });
    long.push(Buffer.from('b'.repeat(10)));
    long.push(Buffer.from(`${'b'.repeat(30)}\n`));
    expect(long.lines()).toEqual([`${'b'.repeat(16)} … [24 more characters truncated]`]);
  });

  it('decodes characters split across chunks and flushes an unterminated last line', () => {
    const ring = new StderrRing();
    const bytes = Buffer.from('✓ ok\nfinal ✓');
    for (let i = 0; i < bytes.length; i++) ring.push(bytes.subarray(i, i + 1));
    expect(ring.lines()).toEqual(['✓ ok']);
    ring.end();
    expect(ring.lines()).toEqual(['✓ ok', 'final ✓']);
  });

  it('stays bounded under a flood', () => {
    const ring = new StderrRing({ maxLines: 1000, maxBytes: 256 * 1024 });
    const chunk = Buffer.from('flood line 0123456789 0123456789 0123456789\n'.repeat(1500));
    for (let i = 0; i < 200; i++) ring.push(chunk);
    expect(ring.lines()).toHaveLength(1000);
    expect(ring.totalBytes).toBe(chunk.length * 200);
  });
});
