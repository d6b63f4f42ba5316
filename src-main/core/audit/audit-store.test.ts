/**
 * The write-ahead journal (issue #15): a call's decision row is safe — on disk, readable by the next
 * run — before the call is sent, and reaches the database with its outcome in batches.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { DATABASE_FILE, openDatabase } from '../store/database';
import { MIGRATIONS } from '../store/migrations';
import type { AuditDecisionRow } from './audit-rows';
import { AuditStore } from './audit-store';
import type { JournalEntry } from './write-ahead-journal';

function open() {
  const dir = tempDir();
  const { db } = openDatabase(dir);
  onTestFinished(() => {
    db.close();
  });
  const file = path.join(dir, DATABASE_FILE);
  const reader = new Database(file, { readonly: true });
  onTestFinished(() => {
    reader.close();
  });
  return { db, audit: new AuditStore(db), file, reader };
}

const row = (n: number): AuditDecisionRow => ({
  callId: `call-${n}`,
  serverId: 'server',
  serverName: 'Server',
  tool: 'echo',
  origin: 'model',
  decidedBy: 'policy',
  decision: 'allowed',
  decisionNote: 'Always allow (standing decision)',
  definitionHash: 'a'.repeat(64),
  argsDigest: 'b'.repeat(64),
  argsJson: JSON.stringify({ message: `m${n}` }),
  requestedAt: '2026-01-01T00:00:00.000Z',
  decidedAt: '2026-01-01T00:00:00.001Z',
});

const journalOf = (file: string) => `${file}-audit-journal`;
const count = (reader: Database.Database) => (reader.prepare('SELECT COUNT(*) AS n FROM tool_audit').get() as { n: number }).n;

describe('the audit trail, write-ahead through its journal', () => {
  it('has the row in the journal file when writeAhead resolves, and moves it into the database in one batch', async () => {
    const { audit, file, reader } = open();
    const written = Array.from({ length: 32 }, (_, i) => audit.writeAhead(row(i)));
    // The calls of one turn are written together at its end (one system call, not 32)…
    expect(fs.statSync(journalOf(file)).size).toBe(0);
    await Promise.all(written);
    // …and what a run killed right now would leave: every row, whole, in the journal.
    const lines = fs.readFileSync(journalOf(file), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as JournalEntry).row.callId)).toEqual(Array.from({ length: 32 }, (_, i) => `call-${i}`));
    expect(count(reader)).toBe(0);

    audit.finish({ callId: 'call-3', finishedAt: '2026-01-01T00:00:01.000Z', durationMs: 5, outcome: 'ok', resultBytes: 12 });
    audit.flush();
    expect(count(reader)).toBe(32);
    expect(fs.statSync(journalOf(file)).size).toBe(0); // committed: the journal starts over
    // A call that ended before the batch is one row with its outcome.
    expect(reader.prepare("SELECT outcome, result_bytes FROM tool_audit WHERE call_id = 'call-3'").get()).toEqual({
      outcome: 'ok',
      result_bytes: 12,
    });
  });

  it('writes the outcome of a call whose row went in earlier onto that row', () => {
    const { audit, reader } = open();
    audit.writeAhead(row(1));
    audit.flush();
    expect(reader.prepare("SELECT outcome FROM tool_audit WHERE call_id = 'call-1'").get()).toEqual({ outcome: null });
    audit.finish({ callId: 'call-1', finishedAt: '2026-01-01T00:00:02.000Z', durationMs: 9, outcome: 'tool_error', outcomeNote: 'no' });
    audit.flush();
    expect(reader.prepare("SELECT outcome, outcome_note, duration_ms FROM tool_audit WHERE call_id = 'call-1'").get()).toEqual({
      outcome: 'tool_error',
      outcome_note: 'no',
      duration_ms: 9,
    });
    expect(count(reader)).toBe(1);
  });

  it('keeps the others when the database refuses one row', () => {
    const { audit, reader } = open();
    audit.writeAhead(row(1));
    audit.writeAhead({ ...row(2), origin: 'bogus' as never });
    audit.writeAhead(row(3));
    audit.flush();
    expect(reader.prepare('SELECT call_id FROM tool_audit ORDER BY seq').all()).toEqual([{ call_id: 'call-1' }, { call_id: 'call-3' }]);
  });

  it('records refused calls in call order with the others, and a refused call left in the journal keeps its outcome', async () => {
    const dir = tempDir();
    const first = openDatabase(dir).db;
    const stopped = new AuditStore(first);
    stopped.writeAhead(row(1));
    stopped.recordRefused(
      { ...row(2), decision: 'denied', decidedBy: 'user' },
      { finishedAt: '2026-01-01T00:00:03.000Z', durationMs: 0, outcome: 'denied' },
    );
    await stopped.writeAhead(row(3));
    const journal = fs.readFileSync(journalOf(path.join(dir, DATABASE_FILE)));
    first.close(); // the run dies before its batch
    fs.writeFileSync(journalOf(path.join(dir, DATABASE_FILE)), journal);

    const { db } = openDatabase(dir);
    onTestFinished(() => {
      db.close();
    });
    new AuditStore(db).markInterrupted();
    expect(db.prepare('SELECT call_id, decision, outcome FROM tool_audit ORDER BY seq').all()).toEqual([
      { call_id: 'call-1', decision: 'allowed', outcome: 'interrupted' },
      { call_id: 'call-2', decision: 'denied', outcome: 'denied' },
      { call_id: 'call-3', decision: 'allowed', outcome: 'interrupted' },
    ]);
  });

  it('moves what a stopped run left in the journal into the trail at the next start, once, as interrupted', async () => {
    const dir = tempDir();
    const first = openDatabase(dir).db;
    const stopped = new AuditStore(first);
    stopped.writeAhead(row(1));
    stopped.writeAhead(row(2));
    stopped.flush(); // call-1 and call-2 committed, then the journal starts over…
    await stopped.writeAhead(row(3)); // …and call-3 is only in the journal when the run dies.
    const journal = journalOf(path.join(dir, DATABASE_FILE));
    // A crash right after a batch committed but before the journal started over leaves committed rows too.
    fs.appendFileSync(journal, `${JSON.stringify({ row: row(2) })}\n{"row":{"callId":"torn`);
    const leftover = fs.readFileSync(journal);
    first.close(); // no close() of the trail: the run died
    fs.writeFileSync(journal, leftover);

    const { db } = openDatabase(dir);
    onTestFinished(() => {
      db.close();
    });
    const audit = new AuditStore(db);
    expect(audit.markInterrupted()).toBe(3);
    const rows = db.prepare('SELECT call_id, outcome FROM tool_audit ORDER BY seq').all();
    expect(rows).toEqual([
      { call_id: 'call-1', outcome: 'interrupted' },
      { call_id: 'call-2', outcome: 'interrupted' },
      { call_id: 'call-3', outcome: 'interrupted' },
    ]);
    expect(fs.statSync(journal).size).toBe(0);
  });

  it('writes what waits when it closes, removes the journal, and refuses new rows afterwards', async () => {
    const { audit, file, reader } = open();
    const written = audit.writeAhead(row(1));
    audit.close();
    await written;
    expect(count(reader)).toBe(1);
    expect(fs.existsSync(journalOf(file))).toBe(false);
    await expect(audit.writeAhead(row(2))).rejects.toThrow('The audit trail is closed');
  });

  it('refuses every row of a turn whose journal write fails, and keeps none of them', async () => {
    const { db, reader } = open();
    const audit = new AuditStore(db, { journalFile: '/dev/full' }); // every write: ENOSPC
    const written = [1, 2, 3].map((n) => audit.writeAhead(row(n)));
    for (const result of await Promise.allSettled(written))
      expect(result).toMatchObject({ status: 'rejected', reason: { code: 'ENOSPC' } });
    audit.recordRefused(
      { ...row(1), decision: 'denied', decidedBy: 'host' },
      { finishedAt: '2026-01-01T00:00:03.000Z', durationMs: 0, outcome: 'protocol_error' },
    );
    audit.flush();
    // The refusal is recorded; no row claims that a call left.
    expect(reader.prepare('SELECT call_id, decision FROM tool_audit').all()).toEqual([{ call_id: 'call-1', decision: 'denied' }]);
  });
});

describe('the trail table after migration 015 (its CHECKs as comparisons, not IN lists)', () => {
  const insertSql = `INSERT INTO tool_audit (call_id, server_id, server_name, tool_name, origin, decided_by, decision, args_digest,
      args_json, requested_at, decided_at, outcome) VALUES (?, 's', 'S', 'echo', ?, ?, ?, 'd', '{}', 't', 't', ?)`;

  it('keeps the rows of a schema-14 database and still refuses every value outside its column’s set', () => {
    const dir = tempDir();
    const v14 = MIGRATIONS.slice(0, 14);
    const old = openDatabase(dir, { migrations: v14 }).db;
    old.prepare(insertSql).run('old-call', 'app', 'timeout', 'denied', 'interrupted');
    old.close();

    const { db } = openDatabase(dir);
    onTestFinished(() => {
      db.close();
    });
    expect(db.prepare('SELECT call_id, origin, decided_by, decision, outcome FROM tool_audit').all()).toEqual([
      { call_id: 'old-call', origin: 'app', decided_by: 'timeout', decision: 'denied', outcome: 'interrupted' },
    ]);
    const insert = db.prepare(insertSql);
    // Every allowed value of each column goes in; an open call has no outcome yet (NULL passes).
    insert.run('ok-1', 'user', 'user', 'allowed', null);
    insert.run('ok-2', 'model', 'policy', 'allowed', 'ok');
    insert.run('ok-3', 'app', 'host', 'denied', 'protocol_error');
    for (const outcome of ['tool_error', 'cancelled', 'denied']) insert.run(`ok-${outcome}`, 'model', 'user', 'allowed', outcome);
    expect(() => insert.run('bad-origin', 'robot', 'user', 'allowed', 'ok')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('bad-decider', 'user', 'someone', 'allowed', 'ok')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('bad-decision', 'user', 'user', 'maybe', 'ok')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('bad-outcome', 'user', 'user', 'allowed', 'fine')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('case', 'User', 'user', 'allowed', 'ok')).toThrow(/CHECK constraint failed/);
    expect(count(db)).toBe(7);
  });
});
