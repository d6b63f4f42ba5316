import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE, openDatabase, type OpenedDatabase } from './database';
import { WalCheckpointer } from './wal-checkpointer';

const opened: { db: OpenedDatabase['db']; checkpointer?: WalCheckpointer }[] = [];
afterEach(async () => {
  for (const { db, checkpointer } of opened.splice(0)) {
    await checkpointer?.close();
    db.close();
  }
});

function setUp(options: { intervalMs?: number; file?: string } = {}) {
  const dir = tempDir();
  const { db } = openDatabase(dir);
  db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const fallbacks: string[] = [];
  const checkpointer = new WalCheckpointer(db, {
    file: options.file ?? path.join(dir, DATABASE_FILE),
    intervalMs: options.intervalMs ?? 60_000,
    onFallback: (reason) => fallbacks.push(reason),
  });
  opened.push({ db, checkpointer });
  const insert = db.prepare('INSERT INTO blobs (body) VALUES (?)');
  /** About `mb` megabytes in 64 KB rows, one commit per row (each commit appends frames to the WAL). */
  const write = (mb: number) => {
    for (let i = 0; i < mb * 16; i++) insert.run('x'.repeat(64 * 1024));
  };
  const fileBytes = () => fs.statSync(path.join(dir, DATABASE_FILE)).size;
  return { dir, db, checkpointer, fallbacks, write, fileBytes };
}

describe('WalCheckpointer', () => {
  it('turns the main connection’s automatic checkpoints off, so commits past 1,000 WAL pages copy nothing', async () => {
    const { db, checkpointer, write, fileBytes } = setUp();
    await waitFor(() => checkpointer.status === 'running', { what: 'the checkpoint worker' });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = fileBytes();
    write(6); // ≈ 1,500 pages: past the automatic threshold
    // Only a checkpoint copies pages into the database file: none ran on this thread.
    expect(fileBytes()).toBe(before);
  });

  it('checkpoints on the worker: every frame reaches the database, and the next commit starts the WAL over', async () => {
    const { db, checkpointer, write, fileBytes } = setUp();
    write(6);
    const first = await checkpointer.checkpointNow();
    expect(first.busy).toBe(0);
    expect(first.log).toBeGreaterThan(1000);
    expect(first.checkpointed).toBe(first.log);
    expect(fileBytes()).toBeGreaterThan(6 * 1024 * 1024);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 96 });

    write(0.0625); // one row: the WAL restarts from its beginning instead of growing
    const second = await checkpointer.checkpointNow();
    expect(second.log).toBeLessThan(first.log);
    expect(second.log).toBeLessThan(50);
  });

  it('checkpoints by itself every interval', async () => {
    const { checkpointer, write, fileBytes } = setUp({ intervalMs: 50 });
    await waitFor(() => checkpointer.status === 'running', { what: 'the checkpoint worker' });
    const before = fileBytes();
    write(2);
    await waitFor(() => fileBytes() >= before + 2 * 1024 * 1024, { what: 'a periodic checkpoint', timeoutMs: 20_000 });
  });

  it('falls back to automatic checkpoints, with the reason, when the worker cannot open the database', async () => {
    const { db, checkpointer, fallbacks } = setUp({ file: path.join(tempDir(), 'missing.db') });
    await waitFor(() => checkpointer.status === 'fallback', { what: 'the fallback' });
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatch(/checkpoint worker stopped: it cannot open the database: .*(unable to open|does not exist)/i);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await expect(checkpointer.checkpointNow()).rejects.toThrow(/not running/);
  });

  it('close stops the worker and gives the main connection its automatic checkpoints back', async () => {
    const { db, checkpointer, write, fallbacks } = setUp();
    await waitFor(() => checkpointer.status === 'running', { what: 'the checkpoint worker' });
    await checkpointer.close();
    expect(checkpointer.status).toBe('closed');
    expect(fallbacks).toEqual([]);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await expect(checkpointer.checkpointNow()).rejects.toThrow(/closed/);
    write(0.0625);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
  });
});
