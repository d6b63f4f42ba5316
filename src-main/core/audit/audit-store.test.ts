/**
 * Grouped write-ahead commits (issue #15): the decision rows of one turn of the event loop share one
 * transaction, committed before any of their calls is told to go.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { DATABASE_FILE, openDatabase } from '../store/database';
import { AuditStore, type AuditDecisionRow } from './audit-store';

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

describe('the audit trail, write-ahead in groups', () => {
  it('commits the rows of one turn in one transaction, before any of them resolves', async () => {
    const { db, audit, file, reader } = open();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const count = () => (reader.prepare('SELECT COUNT(*) AS n FROM tool_audit WHERE outcome IS NULL').get() as { n: number }).n;
    const pending = Array.from({ length: 32 }, (_, i) => audit.writeAhead(row(i)));
    let visibleAtFirst = -1;
    void pending[0].then(() => (visibleAtFirst = count()));
    expect(count()).toBe(0); // nothing is committed within the turn that asked
    const seqs = await Promise.all(pending);
    // Another connection (another process after a crash) sees all 32 when the first call may go.
    expect(visibleAtFirst).toBe(32);
    expect(new Set(seqs).size).toBe(32);
    // 32 commits would each append at least one page frame to the WAL; one transaction appends a few.
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    expect(fs.statSync(`${file}-wal`).size).toBeLessThanOrEqual(32 + 6 * (24 + pageSize));
  });

  it('fails only the call whose row the database refuses; the rest of the group commits', async () => {
    const { audit, reader } = open();
    const first = audit.writeAhead(row(1));
    const refused = audit.writeAhead({ ...row(2), origin: 'bogus' as never });
    const third = audit.writeAhead(row(3));
    await expect(refused).rejects.toThrow(/CHECK constraint failed/);
    expect([await first, await third]).toEqual([expect.any(Number), expect.any(Number)]);
    expect(reader.prepare('SELECT call_id FROM tool_audit ORDER BY seq').all()).toEqual([{ call_id: 'call-1' }, { call_id: 'call-3' }]);
  });

  it('commits waiting rows when it closes, and refuses new ones afterwards', async () => {
    const { audit, reader } = open();
    const waiting = audit.writeAhead(row(1));
    audit.close();
    expect(await waiting).toEqual(expect.any(Number));
    expect(reader.prepare('SELECT COUNT(*) AS n FROM tool_audit').get()).toEqual({ n: 1 });
    await expect(audit.writeAhead(row(2))).rejects.toThrow('The audit trail is closed');
  });
});
