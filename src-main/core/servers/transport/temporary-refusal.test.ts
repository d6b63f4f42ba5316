import { describe, expect, it } from 'vitest';
import { describeRefusal, isTemporaryStatus, MAX_RETRY_AFTER_MS, parseRetryAfter } from './temporary-refusal';

describe('temporary refusals', () => {
  it('reads Retry-After as seconds or as an HTTP date, bounded', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:45 GMT', now)).toBe(45_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0); // already past
    expect(parseRetryAfter('999999', now)).toBe(MAX_RETRY_AFTER_MS);
    for (const junk of [null, undefined, '', 'soon', '-5', '1.5']) expect(parseRetryAfter(junk, now)).toBeUndefined();
  });

  it('takes 429 and the 5xx that mean "later" for temporary; other answers are not', () => {
    expect([429, 500, 502, 503, 504].every(isTemporaryStatus)).toBe(true);
    expect([400, 401, 403, 404, 405, 501, 505].some(isTemporaryStatus)).toBe(false);
    expect(describeRefusal({ status: 429, statusText: 'Too Many Requests' })).toBe('asked Patchbay to wait (HTTP 429 Too Many Requests)');
    expect(describeRefusal({ status: 503, statusText: '' }, 'example.com')).toBe('is temporarily unavailable (HTTP 503 from example.com)');
  });
});
