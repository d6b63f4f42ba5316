import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { backupDatabase, DATABASE_FILE, DatabaseTooNewError, openDatabase } from './database';
import { SCHEMA_VERSION } from './migrations';

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

describe('openDatabase', () => {
  it('creates a WAL database whose synchronous level stays FULL after the first commit and after reopen', () => {
    const dir = tempDir();
    const first = openDatabase(dir);
    expect(first.status).toMatchObject({ state: 'ok', journalMode: 'wal', synchronous: 'FULL', schemaVersion: SCHEMA_VERSION });
    first.db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('k', '1', 'now')").run();
    expect(first.db.pragma('synchronous', { simple: true })).toBe(2);
    first.db.close();

    const reopened = openDatabase(dir);
    expect(reopened.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(reopened.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(reopened.db.prepare('SELECT value FROM settings WHERE key = ?').get('k')).toEqual({ value: '1' });
    reopened.db.close();
  });

  it('records the schema version and does not re-run migrations on reopen', () => {
    const dir = tempDir();
    openDatabase(dir).db.close();
    const again = openDatabase(dir);
    expect(again.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    again.db.close();
  });

  it('refuses a database written by a newer Patchbay and leaves it byte-for-byte untouched', () => {
    const dir = tempDir();
    const file = path.join(dir, DATABASE_FILE);
    const newer = new Database(file);
    newer.exec('CREATE TABLE future (x)');
    newer.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    newer.close();
    const before = fs.readFileSync(file);
    const filesBefore = listFiles(dir);

    expect(() => openDatabase(dir)).toThrow(DatabaseTooNewError);
    expect(() => openDatabase(dir)).toThrow(/newer Patchbay.*left untouched/s);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(listFiles(dir)).toEqual(filesBefore);
  });

  it('moves a corrupt database aside with its -wal and -shm files, keeps them, and starts fresh', () => {
    const dir = tempDir();
    const file = path.join(dir, DATABASE_FILE);
    fs.writeFileSync(file, 'this is not a database, just junk bytes '.repeat(200));
    fs.writeFileSync(`${file}-wal`, 'wal junk');
    fs.writeFileSync(`${file}-shm`, 'shm junk');

    const opened = openDatabase(dir, { now: () => new Date('2026-01-02T03:04:05.000Z') });
    expect(opened.status.state).toBe('recovered');
    const aside = opened.status.movedAsideTo!;
    expect(aside).toBe(`${file}.corrupt-2026-01-02T03-04-05-000Z`);
    expect(fs.readFileSync(aside, 'utf8')).toContain('just junk bytes');
    expect(fs.readFileSync(`${aside}-wal`, 'utf8')).toBe('wal junk');
    expect(fs.readFileSync(`${aside}-shm`, 'utf8')).toBe('shm junk');
    expect(opened.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    opened.db.close();
  });

  it('moves aside a database whose pages fail quick_check', () => {
    const dir = tempDir();
    const file = path.join(dir, DATABASE_FILE);
    const db = new Database(file);
    db.pragma('page_size = 4096');
    db.exec('CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t (x);');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    // One transaction: 2,000 separate commits would be 2,000 fsyncs, slow on a busy disk.
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`row ${i} ${'x'.repeat(50)}`);
    })();
    db.close();
    // Scribble over a page in the middle of the file (the header on page 1 stays valid).
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, 4096 * 3);
    fs.closeSync(fd);

    const opened = openDatabase(dir);
    expect(opened.status.state).toBe('recovered');
    expect(fs.existsSync(opened.status.movedAsideTo!)).toBe(true);
    opened.db.close();
  });

  it('backs up the previous schema with VACUUM INTO, then migrates each step in one transaction', () => {
    const dir = tempDir();
    const file = path.join(dir, DATABASE_FILE);
    const v1 = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)'];
    const first = openDatabase(dir, { migrations: v1 });
    first.db.prepare('INSERT INTO notes (body) VALUES (?)').run('kept');
    first.db.close();

    const v2 = [...v1, 'ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0'];
    const second = openDatabase(dir, { migrations: v2 });
    expect(second.status.schemaVersion).toBe(2);
    expect(second.db.prepare('SELECT body, pinned FROM notes').get()).toEqual({ body: 'kept', pinned: 0 });
    second.db.close();

    const backup = new Database(`${file}.before-schema-2.bak`, { readonly: true });
    expect(backup.pragma('user_version', { simple: true })).toBe(1);
    expect(backup.prepare('SELECT body FROM notes').get()).toEqual({ body: 'kept' });
    backup.close();
  });

  it('rolls a failing migration back whole and keeps the previous version', () => {
    const dir = tempDir();
    const v1 = ['CREATE TABLE notes (id INTEGER PRIMARY KEY)'];
    openDatabase(dir, { migrations: v1 }).db.close();
    const broken = [...v1, 'CREATE TABLE half_done (x); THIS IS NOT SQL'];
    expect(() => openDatabase(dir, { migrations: broken })).toThrow();

    const after = openDatabase(dir, { migrations: v1 });
    expect(after.status.schemaVersion).toBe(1);
    expect(after.db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
    after.db.close();
  });
});

describe('backupDatabase', () => {
  it('writes a consistent, openable copy of the live database', async () => {
    const dir = tempDir();
    const { db } = openDatabase(dir);
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('theme', '\"dark\"', 'now')").run();
    const target = path.join(dir, 'backups', 'copy.db');
    await backupDatabase(db, target);
    db.close();
    const copy = new Database(target, { readonly: true });
    expect(copy.prepare('SELECT value FROM settings WHERE key = ?').get('theme')).toEqual({ value: '"dark"' });
    copy.close();
  });
});
