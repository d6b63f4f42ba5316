import type Database from 'better-sqlite3';
import type { RootsAuditEntry } from '@contract';
import { RelaxedWriter } from '../store/relaxed-write';

interface AuditRow {
  id: number;
  at: string;
  server_id: string;
  server_name: string;
  action: RootsAuditEntry['action'];
  roots: string;
  detail: string;
}

const toEntry = (row: AuditRow): RootsAuditEntry => ({
  id: row.id,
  at: row.at,
  serverId: row.server_id,
  serverName: row.server_name,
  action: row.action,
  roots: JSON.parse(row.roots) as RootsAuditEntry['roots'],
  detail: row.detail,
});

/**
 * The roots audit trail: what was shared with whom, and when. Append-only for everyone but its own
 * bound: only the newest `keep` entries are kept, so a chatty server cannot grow the database forever.
 * (A general audit trail, when there is one, can absorb this table.)
 *
 * Every server asks for the roots as it starts: the entries commit relaxed (see store/relaxed-write.ts),
 * like the tool-call audit, so 50 servers starting cost no fsync each on the main thread.
 */
export class RootsAuditRepository {
  private readonly relaxed: RelaxedWriter;
  private readonly appendRow: (entry: Omit<RootsAuditEntry, 'id'>) => number;

  constructor(
    private readonly db: Database.Database,
    private readonly keep = 5000,
  ) {
    this.relaxed = new RelaxedWriter(db);
    const insert = db.prepare('INSERT INTO roots_audit (at, server_id, server_name, action, roots, detail) VALUES (?, ?, ?, ?, ?, ?)');
    const trim = db.prepare('DELETE FROM roots_audit WHERE id <= ?');
    this.appendRow = db.transaction((entry: Omit<RootsAuditEntry, 'id'>) => {
      const result = insert.run(entry.at, entry.serverId, entry.serverName, entry.action, JSON.stringify(entry.roots), entry.detail);
      const newId = Number(result.lastInsertRowid);
      trim.run(newId - this.keep);
      return newId;
    });
  }

  append(entry: Omit<RootsAuditEntry, 'id'>): RootsAuditEntry {
    const id = this.relaxed.run(() => this.appendRow(entry));
    return { id, ...entry };
  }

  /** Newest first. */
  list({ serverId, limit = 100 }: { serverId?: string; limit?: number } = {}): RootsAuditEntry[] {
    const rows = serverId
      ? this.db
          .prepare<[string, number], AuditRow>('SELECT * FROM roots_audit WHERE server_id = ? ORDER BY id DESC LIMIT ?')
          .all(serverId, limit)
      : this.db.prepare<[number], AuditRow>('SELECT * FROM roots_audit ORDER BY id DESC LIMIT ?').all(limit);
    return rows.map(toEntry);
  }
}
