import { describe, expect, it } from 'vitest';
import { isoTime } from './clock';

describe('isoTime', () => {
  it('is toISOString for every date, whether the millisecond repeats, moves on or goes back', () => {
    const times = [1_764_000_000_123, 1_764_000_000_123, 1_764_000_000_124, 1_764_000_001_000, 1_764_000_000_123, 0, 0];
    for (const ms of times) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });
});
