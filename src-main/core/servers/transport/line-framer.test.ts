import { describe, expect, it } from 'vitest';
import { LineFramer, type OversizedLine } from './line-framer';

function framer(maxLineBytes = 1024) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const f = new LineFramer({ maxLineBytes, onLine: (line) => lines.push(line), onOversized: (info) => oversized.push(info) });
  return { f, lines, oversized };
}

describe('LineFramer', () => {
  it('splits lines across chunk boundaries, strips CR, and skips empty lines', () => {
    const { f, lines } = framer();
    for (const chunk of ['{"a":', '1}\n{"b"', ':2}\r\n\n\n{"c":3}\n{"d"']) f.push(Buffer.from(chunk));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(f.bufferedBytes).toBe(4);
    f.end();
    expect(lines.at(-1)).toBe('{"d"');
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const { f, lines } = framer();
    const bytes = Buffer.from('{"t":"héllo ✓ 😀"}\n');
    for (let i = 0; i < bytes.length; i++) f.push(bytes.subarray(i, i + 1));
    expect(lines).toEqual(['{"t":"héllo ✓ 😀"}']);
  });

  it('delivers a 10 MB line arriving in 64 KB chunks intact', () => {
    const { f, lines } = framer(16 * 1024 * 1024);
    const payload = `{"jsonrpc":"2.0","id":1,"result":{"text":"${'x'.repeat(10 * 1024 * 1024)}"}}`;
    const data = Buffer.from(`${payload}\n{"next":true}\n`);
    for (let i = 0; i < data.length; i += 65536) f.push(data.subarray(i, i + 65536));
    expect(lines).toHaveLength(2);
    expect(lines[0].length).toBe(payload.length);
    expect(lines[0] === payload).toBe(true);
    expect(JSON.parse(lines[0]).result.text).toHaveLength(10 * 1024 * 1024);
    expect(lines[1]).toBe('{"next":true}');
  });

  it('discards a line over the limit up to its newline, reports its size and edges, and carries on', () => {
    const { f, lines, oversized } = framer(100);
    const big = `{"result":"${'y'.repeat(500)}","jsonrpc":"2.0","id":7}`;
    f.push(Buffer.from('{"before":1}\n'));
    for (let i = 0; i < big.length; i += 30) f.push(Buffer.from(big.slice(i, i + 30)));
    f.push(Buffer.from('\r\n{"after":2}\n'));
    expect(lines).toEqual(['{"before":1}', '{"after":2}']);
    expect(oversized).toHaveLength(1);
    expect(oversized[0].bytes).toBe(big.length);
    expect(oversized[0].head.startsWith('{"result":"yyy')).toBe(true);
    expect(oversized[0].tail.endsWith('"jsonrpc":"2.0","id":7}')).toBe(true);
    expect(f.bufferedBytes).toBe(0);
  });

  it('accepts a line of exactly the limit', () => {
    const { f, lines, oversized } = framer(10);
    f.push(Buffer.from('0123456789\n01234567890\n'));
    expect(lines).toEqual(['0123456789']);
    expect(oversized.map((o) => o.bytes)).toEqual([11]);
  });
});
