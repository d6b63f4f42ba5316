import { describe, expect, it } from 'vitest';
import { settledRss } from './settled-rss';

const MB = 1024 * 1024;
/** A reader that plays back `values` (then keeps the last), counting reads. */
function playback(values: number[]) {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)];
}
const noWait = async () => undefined;

describe('settledRss', () => {
  it('reads until RSS stops falling for two reads in a row', async () => {
    const read = playback([150 * MB, 120 * MB, 120 * MB, 120 * MB + 4096, 90 * MB]);
    expect(await settledRss(180 * MB, { read, wait: noWait })).toEqual({ rss: 120 * MB + 4096, reads: 4 });
  });

  it('takes a steady RSS after two reads, and a rising one too (growth is not garbage being returned)', async () => {
    expect(await settledRss(100 * MB, { read: playback([100 * MB]), wait: noWait })).toEqual({ rss: 100 * MB, reads: 2 });
    expect(await settledRss(100 * MB, { read: playback([101 * MB, 102 * MB]), wait: noWait })).toEqual({ rss: 102 * MB, reads: 2 });
  });

  it('gives up after maxReads while it keeps falling', async () => {
    let rss = 500 * MB;
    const read = () => (rss -= MB);
    expect(await settledRss(rss, { read, wait: noWait, maxReads: 20 })).toEqual({ rss: 480 * MB, reads: 20 });
  });
});
