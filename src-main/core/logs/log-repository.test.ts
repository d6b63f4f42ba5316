import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry, LogStream } from '@contract';
import { tempDir } from '../../test-support/temp-dir';
import { HostEventBus } from '../events';
import { openDatabase } from '../store/database';
import { waitFor } from '../servers/wait';
import { LogService, type AppendInput } from './log-service';

const DAY = 86_400_000;
const services: LogService[] = [];
afterEach(() => services.splice(0).forEach((s) => s.dispose()));

function setup(now = { t: Date.parse('2026-01-10T00:00:00Z') }, dataDir = tempDir(), maxPerStreamPerFlush?: number) {
  const { db } = openDatabase(dataDir);
  for (const id of ['s1', 's2'])
    db.prepare(
      `INSERT OR IGNORE INTO servers (id, name, name_key, command, args, cwd, enabled, init_timeout_ms, request_timeout_ms, auto_restart, position, created_at, updated_at) VALUES ('${id}', '${id}', '${id}', 'node', '[]', '', 1, 1000, 1000, 1, 0, '', '')`,
    ).run();
  const events = new HostEventBus();
  const appended: LogEntry[] = [];
  events.subscribe((e) => e.name === 'logAppended' && appended.push(...e.payload.entries));
  const service = new LogService({
    db,
    events,
    clock: { now: () => new Date(now.t) },
    live: { flushMs: 10 },
    writer: { flushMs: 10, maxPerStreamPerFlush },
  });
  services.push(service);
  return { db, service, now, appended, dataDir };
}

const add = (service: LogService, stream: LogStream, text: string, extra: object = {}) =>
  service.append('s1', stream, { level: 'info', text, ...extra })!;

/** Row counts of `log_entries` seen at each turn of the event loop until `rows` are stored (or 500 turns). */
async function countsPerTurn(db: ReturnType<typeof openDatabase>['db'], rows: number): Promise<number[]> {
  const seen: number[] = [];
  const count = db.prepare('SELECT COUNT(*) AS n FROM log_entries');
  for (let turn = 0; turn < 5000 && seen.at(-1) !== rows; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    const n = (count.get() as { n: number }).n;
    if (n !== seen.at(-1)) seen.push(n);
  }
  return seen;
}

/** A writer cap no test interval reaches, for tests about slices and retention rather than the cap. */
const ROOMY_CAP = 5000;

describe('LogService storage', () => {
  it('writes a busy interval in slices, letting the event loop run between them; a flush before a read writes the rest at once', async () => {
    // A cap above the interval's 1,200 rows: this is about slices, not the cap.
    const { service, db } = setup(undefined, undefined, ROOMY_CAP);
    for (let i = 0; i < 1200; i++) add(service, 'output', `line ${i}`);
    // The timed flush: 500 rows per transaction, one turn of the event loop each.
    expect(await countsPerTurn(db, 1200)).toEqual([0, 500, 1000, 1200]);

    for (let i = 0; i < 1200; i++) add(service, 'output', `more ${i}`);
    // The timed flush starts: its first slice is written, two are still to come…
    const count = db.prepare('SELECT COUNT(*) AS n FROM log_entries');
    while ((count.get() as { n: number }).n === 1200) await new Promise((resolve) => setImmediate(resolve));
    expect((count.get() as { n: number }).n).toBe(1700);
    // …and the flush a database read does first waits for no slice: the rest is written at once.
    service.flush();
    expect((count.get() as { n: number }).n).toBe(2400);
    expect(service.page({ serverId: 's1', stream: 'output' }, undefined, 1).entries[0].text).toBe('more 1199');
  });

  it('never writes a removed server’s rows that were waiting for their slice', async () => {
    const { service, db } = setup(undefined, undefined, ROOMY_CAP);
    for (let i = 0; i < 1500; i++) service.append(i % 2 ? 's1' : 's2', 'output', { level: 'info', text: `line ${i}` });
    const seen: number[] = [];
    const count = db.prepare("SELECT COUNT(*) AS n FROM log_entries WHERE server_id = 's1'");
    // At the first turn after a slice was written, s1 goes.
    while ((count.get() as { n: number }).n === 0) await new Promise((resolve) => setImmediate(resolve));
    seen.push((count.get() as { n: number }).n);
    service.forgetServer('s1');
    service.flush();
    expect(seen[0]).toBeLessThan(750);
    expect((count.get() as { n: number }).n).toBe(0);
    expect((db.prepare("SELECT COUNT(*) AS n FROM log_entries WHERE server_id = 's2'").get() as { n: number }).n).toBe(750);
  });

  it('pages a stream newest first across memory and disk, with filters, and survives a restart', () => {
    const { service, db, dataDir } = setup();
    for (let i = 0; i < 30; i++) add(service, 'output', `line ${i}${i % 10 === 0 ? ' needle' : ''}`, i % 3 === 0 ? { level: 'error' } : {});
    add(service, 'protocol', '→ tools/call #1', {
      fields: { method: 'tools/call', direction: 'out', kind: 'request' },
      detail: { method: 'tools/call' },
    });
    add(service, 'protocol', '→ tools/list #2', { fields: { method: 'tools/list', direction: 'out', kind: 'request' } });

    const first = service.page({ serverId: 's1', stream: 'output' }, undefined, 10);
    expect(first.entries.map((e) => e.text)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${20 + i}${i === 0 ? ' needle' : ''}`));
    expect(first.hasMore).toBe(true);
    const second = service.page({ serverId: 's1', stream: 'output' }, first.entries[0].seq, 100);
    expect(second.entries).toHaveLength(20);
    expect(second.hasMore).toBe(false);
    expect(service.page({ serverId: 's1', stream: 'output', text: 'NEEDLE' }, undefined, 100).entries.map((e) => e.text)).toEqual([
      'line 0 needle',
      'line 10 needle',
      'line 20 needle',
    ]);
    expect(service.page({ serverId: 's1', stream: 'output', minLevel: 'error' }, undefined, 100).entries).toHaveLength(10);
    expect(service.page({ serverId: 's1', stream: 'protocol', method: 'tools/c' }, undefined, 100).entries.map((e) => e.method)).toEqual([
      'tools/call',
    ]);
    const withDetail = service.page({ serverId: 's1', stream: 'protocol' }, undefined, 1).entries;
    expect(withDetail[0].hasDetail).toBeUndefined();

    service.dispose();
    db.close();
    const again = setup(undefined, dataDir);
    const reloaded = again.service.page({ serverId: 's1', stream: 'output', text: 'needle' }, undefined, 100);
    expect(reloaded.entries.map((e) => e.text)).toEqual(['line 0 needle', 'line 10 needle', 'line 20 needle']);
    const call = again.service.page({ serverId: 's1', stream: 'protocol', method: 'tools/call' }, undefined, 1).entries[0];
    expect(again.service.entry(call.seq)).toMatchObject({
      method: 'tools/call',
      direction: 'out',
      hasDetail: true,
      detail: '{\n  "method": "tools/call"\n}',
    });
    // Numbering continues after the stored entries.
    expect(add(again.service, 'host', 'after restart').seq).toBeGreaterThan(call.seq);
  });

  it('lets saved entries go from memory and reads them (and their details) back from disk', () => {
    const { service } = setup();
    const entries = Array.from({ length: 30 }, (_, i) =>
      add(service, 'protocol', `← result #${i}`, {
        fields: { kind: 'response', direction: 'in' },
        detail: { id: i, result: { text: 'y'.repeat(3000) } },
      }),
    );
    expect(service.memoryStats('s1').ringEntries).toBe(30); // waiting for their write
    service.flush();
    expect(service.memoryStats('s1')).toMatchObject({ ringEntries: 0, ringBytes: 0, pendingWrites: 0 });
    const stored = service.query({ serverId: 's1', stream: 'protocol' }, undefined, 100).records;
    expect(stored.map((r) => r.entry.seq)).toEqual(entries.map((e) => e.seq).reverse());
    expect(stored.every((r) => r.detail === undefined)).toBe(true); // the list never needs them
    for (const entry of [entries[0], entries[29]]) {
      const detail = service.entry(entry.seq)!;
      expect(JSON.parse(detail.detail)).toMatchObject({ id: entries.indexOf(entry) });
      expect(detail.truncated).toBe(false);
    }
    expect(service.tail('s1', 'protocol', 2).map((e) => e.text)).toEqual(['← result #28', '← result #29']);
    const exported = service.query({ serverId: 's1', stream: 'protocol' }, undefined, 100, true).records;
    expect(exported.every((r) => r.detail !== undefined && r.detail.includes('"id"'))).toBe(true);
  });

  it('keeps in memory what a flood kept from the disk, and everything newer, so every page is whole', () => {
    const { service } = setup(undefined, undefined, 5);
    const lines = Array.from({ length: 8 }, (_, i) => add(service, 'output', `line ${i}`));
    service.flush(); // 5 saved, 3 over the cap: counted and kept in memory only
    const after = Array.from({ length: 3 }, (_, i) => add(service, 'output', `later ${i}`));
    service.flush();
    // The dropped lines stay, and so do the saved ones after them (the ring is the newest part of the stream).
    expect(service.memoryStats('s1').ringEntries).toBeGreaterThanOrEqual(3 + 3);
    const texts = service.page({ serverId: 's1', stream: 'output' }, undefined, 100).entries.map((e) => e.text);
    expect(texts.filter((t) => t.startsWith('line '))).toEqual(lines.map((l) => l.text));
    expect(texts.filter((t) => t.startsWith('later '))).toEqual(after.map((l) => l.text));
    expect(texts.some((t) => t.includes('were not saved to disk'))).toBe(true);
    expect(service.tail('s1', 'output', 3).map((e) => e.text)).toEqual(['later 0', 'later 1', 'later 2']);
  });

  it('saves at most 500 entries of one stream per interval by default, and says how many it did not', () => {
    const { service, db } = setup();
    for (let i = 0; i < 1200; i++) add(service, 'output', `line ${i}`);
    add(service, 'protocol', 'another stream has its own 500');
    service.flush();
    const rows = db.prepare('SELECT stream, COUNT(*) AS n FROM log_entries GROUP BY stream ORDER BY stream').all();
    expect(rows).toEqual([
      { stream: 'output', n: 500 },
      { stream: 'protocol', n: 1 },
    ]);
    // The first 500 are on disk; the marker names the 700 that are not (it is written with the next flush).
    service.flush();
    const saved = db.prepare("SELECT text FROM log_entries WHERE stream = 'output' ORDER BY seq").all() as { text: string }[];
    expect(saved[499].text).toBe('line 499');
    // The rate it names is the cap over the writer's interval: 500 per 10 ms here (500 ms in the app: 1,000).
    expect(saved.at(-1)?.text).toBe(
      '… 700 entries were not saved to disk: a stream saves at most 50,000 a second (the newest stay in memory)',
    );
  });

  it('makes a deferred entry only when it is read, written or sent, redacted as of when it happened', async () => {
    const { service, db, appended } = setup(undefined, undefined, 5);
    service.setSecrets('s1', ['hunter22']);
    let made = 0;
    const later = (i: number, extra: Partial<AppendInput> = {}) =>
      service.appendLater('s1', 'output', 200, {
        make: () => {
          made += 1;
          return { level: 'info', text: `line ${i} hunter22`, ...extra };
        },
      });
    for (let i = 0; i < 1000; i++) later(i);
    // A secret set afterwards does not reach back: the redactor is the one of the moment.
    service.setSecrets('s1', []);
    expect(made).toBe(0);
    // The live batch (newest 250 at most) and the writer (first 5 of the interval) make what they take.
    await waitFor(() => appended.length > 0 && (db.prepare('SELECT COUNT(*) AS n FROM log_entries').get() as { n: number }).n >= 5, {
      what: 'the live batch and the write',
    });
    expect(made).toBeGreaterThanOrEqual(5 + 1);
    expect(made).toBeLessThanOrEqual(5 + 250);
    const stored = db.prepare("SELECT text FROM log_entries WHERE stream = 'output' ORDER BY seq").all() as { text: string }[];
    // (The flood's own "not saved" marker may be written by now too.)
    const lines = (texts: string[]) => texts.filter((text) => text.startsWith('line '));
    expect(lines(stored.map((r) => r.text))).toEqual([0, 1, 2, 3, 4].map((i) => `line ${i} [REDACTED]`));
    expect(lines(appended.map((e) => e.text)).at(-1)).toBe('line 999 [REDACTED]');
    // A page makes what it shows: the newest twenty of the ring (the flood's "not saved" marker among them).
    const before = made;
    const page = service.page({ serverId: 's1', stream: 'output' }, undefined, 20).entries.filter((e) => e.event !== 'dropped');
    expect(page.slice(-10).map((e) => e.text)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${990 + i} [REDACTED]`));
    expect(made - before).toBeLessThanOrEqual(21);
    // A make that throws is an error entry in its place, not a lost stream.
    service.appendLater('s1', 'output', 200, {
      make: () => {
        throw new Error('bad message');
      },
    });
    later(1000);
    expect(service.tail('s1', 'output', 2).map((e) => [e.level, e.text])).toEqual([
      ['error', 'This entry could not be made: bad message'],
      ['info', 'line 1000 hunter22'],
    ]);
  });

  it('makes a big deferred entry at once: its raw message is not held, and its detail is capped', () => {
    const { service } = setup();
    let made = 0;
    const big = 'z'.repeat(300_000);
    service.appendLater('s1', 'protocol', 2 * big.length, {
      make: () => {
        made += 1;
        return { level: 'info', text: '← result', detailJson: `{"text":"${big}"}` };
      },
    });
    expect(made).toBe(1);
    expect(service.memoryStats('s1').ringBytes).toBeLessThan(70 * 1024);
    expect(service.entry(service.tail('s1', 'protocol', 1)[0].seq)?.truncated).toBe(true);
  });

  it('finds text anywhere in the whole entry (its full message too, in memory or on disk), and a method by any part', () => {
    const { service, dataDir, db } = setup();
    const call = (i: number, echo: string) =>
      add(service, 'protocol', `← result of tools/call #${i} (2 KB) {"content":[{"type":"text","text":"${'x'.repeat(300)}…`, {
        fields: { kind: 'response', direction: 'in', method: 'tools/call' },
        // The echo sits past the one-line preview: only the full message has it.
        detail: { id: i, result: { content: [{ type: 'text', text: `${'x'.repeat(400)} ${echo}` }] } },
      });
    const old = call(1, 'Echo: Hello');
    for (let i = 2; i < 20; i++) call(i, `Echo: other ${i}`); // pushes #1's detail out of memory (saved to disk)
    add(service, 'protocol', '→ resources/read #30', { fields: { kind: 'request', direction: 'out', method: 'resources/read' } });
    service.flush();
    expect(service.query({ serverId: 's1', stream: 'protocol' }, undefined, 100).records.find((r) => r.entry.seq === old.seq)?.detail).toBe(
      undefined,
    );

    const hello = service.page({ serverId: 's1', stream: 'protocol', text: 'echo: hello' }, undefined, 100).entries;
    expect(hello.map((e) => e.seq)).toEqual([old.seq]);
    const recent = service.page({ serverId: 's1', stream: 'protocol', text: 'Echo: other 19' }, undefined, 100).entries;
    expect(recent).toHaveLength(1);
    expect(service.page({ serverId: 's1', stream: 'protocol', text: 'Echo: other' }, undefined, 5)).toMatchObject({ hasMore: true });
    expect(service.page({ serverId: 's1', stream: 'protocol', method: 'READ' }, undefined, 100).entries.map((e) => e.method)).toEqual([
      'resources/read',
    ]);
    expect(service.page({ serverId: 's1', stream: 'protocol', method: 'call' }, undefined, 100).entries).toHaveLength(19);

    // From disk alone, after a restart.
    service.dispose();
    db.close();
    const again = setup(undefined, dataDir);
    expect(
      again.service.page({ serverId: 's1', stream: 'protocol', text: 'Echo: Hello' }, undefined, 100).entries.map((e) => e.seq),
    ).toEqual([old.seq]);
  });

  it('merges every server’s stream by the order the host saw it, from memory and disk, paged and filtered', () => {
    const { service, dataDir, db } = setup();
    const seqs: number[] = [];
    for (let i = 0; i < 12; i++) seqs.push(service.append(i % 2 === 0 ? 's1' : 's2', 'output', { level: 'info', text: `line ${i}` })!.seq);
    add(service, 'host', 'not output');
    const texts = (page: { entries: LogEntry[] }) => page.entries.map((e) => `${e.serverId}:${e.text}`);
    const first = service.page({ stream: 'output' }, undefined, 5);
    expect(texts(first)).toEqual(['s2:line 7', 's1:line 8', 's2:line 9', 's1:line 10', 's2:line 11']);
    expect(first.hasMore).toBe(true);
    const rest = service.page({ stream: 'output' }, first.entries[0].seq, 100);
    expect(rest.entries.map((e) => e.seq)).toEqual(seqs.slice(0, 7));
    expect(rest.hasMore).toBe(false);
    expect(texts(service.page({ stream: 'output', text: 'LINE 1' }, undefined, 100))).toEqual(['s2:line 1', 's1:line 10', 's2:line 11']);

    service.dispose();
    db.close();
    const again = setup(undefined, dataDir);
    again.service.append('s2', 'output', { level: 'info', text: 'after restart' });
    const merged = again.service.page({ stream: 'output' }, undefined, 100).entries;
    expect(merged).toHaveLength(13);
    expect(merged.at(-1)?.text).toBe('after restart');
    expect(merged.map((e) => e.seq)).toEqual([...merged.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it('trims to the retention limits: entries per stream, total size and age', () => {
    const { service, now } = setup(undefined, undefined, ROOMY_CAP);
    service.updateSettings({ maxEntriesPerStream: 100 });
    for (let i = 0; i < 1000; i++) add(service, 'output', `old ${i}`);
    add(service, 'host', 'a host entry');
    service.flush();
    service.updateSettings({ maxEntriesPerStream: 100 }); // applies retention now
    expect(service.repo.stats().rows).toBe(101);
    const kept = service.page({ serverId: 's1', stream: 'output' }, Number.MAX_SAFE_INTEGER, 2000);
    expect(kept.entries.at(-1)?.text).toBe('old 999');

    service.updateSettings({ maxEntriesPerStream: 100_000, maxTotalMB: 1 });
    for (let i = 0; i < 30; i++) add(service, 'protocol', 'p'.repeat(60_000));
    service.flush();
    service.updateSettings({});
    expect(service.repo.stats().bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(service.repo.stats().rows).toBeGreaterThan(10);

    now.t += 15 * DAY;
    add(service, 'host', 'fresh');
    service.flush();
    service.updateSettings({ maxAgeDays: 14 });
    expect(service.repo.stats().rows).toBe(1);
  });

  it('deletes what belongs to a removed server, in memory and on disk', () => {
    const { service, db } = setup();
    add(service, 'output', 'bye');
    service.flush();
    service.forgetServer('s1');
    expect(service.page({ serverId: 's1', stream: 'output' }, undefined, 10).entries).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM log_entries').get()).toEqual({ n: 0 });
  });
});
