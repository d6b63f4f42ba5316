import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry, LogStream } from '../../../src-preload/contract';
import { tempDir } from '../../test-support/temp-dir';
import { HostEventBus } from '../events';
import { openDatabase } from '../store/database';
import { DETAIL_MEMORY, LogService } from './log-service';

const DAY = 86_400_000;
const services: LogService[] = [];
afterEach(() => services.splice(0).forEach((s) => s.dispose()));

function setup(now = { t: Date.parse('2026-01-10T00:00:00Z') }, dataDir = tempDir()) {
  const { db } = openDatabase(dataDir);
  db.prepare(
    "INSERT OR IGNORE INTO servers (id, name, name_key, command, args, cwd, enabled, init_timeout_ms, request_timeout_ms, auto_restart, position, created_at, updated_at) VALUES ('s1', 'one', 'one', 'node', '[]', '', 1, 1000, 1000, 1, 0, '', '')",
  ).run();
  const events = new HostEventBus();
  const appended: LogEntry[] = [];
  events.subscribe((e) => e.name === 'logAppended' && appended.push(...e.payload.entries));
  const service = new LogService({ db, events, clock: { now: () => new Date(now.t) }, live: { flushMs: 10 }, writer: { flushMs: 10 } });
  services.push(service);
  return { db, service, now, appended, dataDir };
}

const add = (service: LogService, stream: LogStream, text: string, extra: object = {}) =>
  service.append('s1', stream, { level: 'info', text, ...extra })!;

describe('LogService storage', () => {
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

  it('keeps only the newest details in memory once saved, and reads older ones back from disk', () => {
    const { service } = setup();
    const entries = Array.from({ length: 30 }, (_, i) =>
      add(service, 'protocol', `← result #${i}`, {
        fields: { kind: 'response', direction: 'in' },
        detail: { id: i, result: { text: 'y'.repeat(3000) } },
      }),
    );
    service.flush();
    const inMemory = service.query({ serverId: 's1', stream: 'protocol' }, undefined, 100).records;
    expect(inMemory).toHaveLength(30);
    const held = inMemory.filter((r) => r.detail !== undefined);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThanOrEqual(DETAIL_MEMORY.entries);
    expect(held.reduce((n, r) => n + r.detail!.length, 0)).toBeLessThanOrEqual(DETAIL_MEMORY.chars + 4000);
    expect(held[0].entry.seq).toBe(entries[29].seq);
    for (const entry of [entries[0], entries[29]]) {
      const detail = service.entry(entry.seq)!;
      expect(JSON.parse(detail.detail)).toMatchObject({ id: entries.indexOf(entry) });
      expect(detail.truncated).toBe(false);
    }
    const exported = service.query({ serverId: 's1', stream: 'protocol' }, undefined, 100, true).records;
    expect(exported.every((r) => r.detail !== undefined && r.detail.includes('"id"'))).toBe(true);
  });

  it('trims to the retention limits: entries per stream, total size and age', () => {
    const { service, now } = setup();
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
