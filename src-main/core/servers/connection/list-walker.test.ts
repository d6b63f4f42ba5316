import { describe, expect, it } from 'vitest';
import { walkList, type ListPage } from './list-walker';

const pages = (...list: ListPage<number>[]) => {
  const asked: (string | undefined)[] = [];
  return {
    asked,
    fetch: async (cursor: string | undefined) => {
      asked.push(cursor);
      return list[asked.length - 1];
    },
  };
};
const options = { what: 'resources', serverName: 'lab' };

describe('walking a paginated list', () => {
  it('follows nextCursor to the end, treating an empty string as a cursor', async () => {
    const p = pages({ items: [1, 2], nextCursor: '' }, { items: [3], nextCursor: 'b' }, { items: [4] });
    expect(await walkList(p.fetch, options)).toEqual({ items: [1, 2, 3, 4] });
    expect(p.asked).toEqual([undefined, '', 'b']);
  });

  it('stops at a cursor it was already sent, saying so', async () => {
    const p = pages({ items: [1], nextCursor: 'a' }, { items: [2], nextCursor: 'b' }, { items: [3], nextCursor: 'a' }, { items: [99] });
    const walk = await walkList(p.fetch, options);
    expect(walk.items).toEqual([1, 2, 3]);
    expect(walk.incomplete).toBe(
      'Server "lab" sent a page cursor it had already sent (a pagination loop); the resources list stops at the 3 received before it.',
    );
    expect(p.asked).toEqual([undefined, 'a', 'b']);
  });

  it('keeps at most `cap` items and says the server offers more', async () => {
    const p = pages({ items: [1, 2, 3], nextCursor: 'x' }, { items: [4, 5, 6], nextCursor: 'y' });
    const walk = await walkList(p.fetch, { ...options, cap: 5 });
    expect(walk).toEqual({ items: [1, 2, 3, 4, 5], incomplete: 'Server "lab" offers more than 5 resources; Patchbay keeps the first 5.' });
  });

  it('passes a failing page on to the caller', async () => {
    await expect(walkList(async () => Promise.reject(new Error('boom')), options)).rejects.toThrow('boom');
  });
});
