import { describe, expect, it } from 'vitest';
import { base64Bytes, formatBytes } from './sizes';

describe('formatBytes', () => {
  it('reads naturally, and a size never wraps between its number and its unit', () => {
    expect([12, 1536, 9830, 16 * 1024 * 1024, 10.5 * 1024 * 1024].map(formatBytes)).toEqual([
      '12\u00a0B',
      '1.5\u00a0KB',
      '9.6\u00a0KB',
      '16\u00a0MB',
      '10.5\u00a0MB',
    ]);
    expect(formatBytes(3 * 1024 ** 3)).toBe('3\u00a0GB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10\u00a0GB');
    // Never "1024.0 KB": a size that rounds up to the next unit is written in it.
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0\u00a0MB');
  });
});

describe('base64Bytes', () => {
  it('counts the decoded bytes, padding aware', () => {
    expect(['YWJj', 'YWI=', 'YQ==', ''].map(base64Bytes)).toEqual([3, 2, 1, 0]);
  });
});
