/**
 * The resource and prompt use trail (table `content_audit`): one row per read, attachment, prompt use
 * and subscription the user made, written when it happened (commits relaxed like the tool-call trail:
 * frequent, small, and an fsync each would cost more than the read).
 */
import type Database from 'better-sqlite3';
import type { ContentAction, ContentAuditEntry, ContentAuditPage } from '@contract';
import { RelaxedWriter } from '../store/relaxed-write';
import { pageBounds, seqPage } from '../store/seq-page';

interface Row {
  seq: number;
  action: ContentAction;
  server_id: string;
  server_name: string;
  target: string;
  detail: string | null;
  conversation_id: string | null;
  outcome: 'ok' | 'error';
  error: string | null;
  chars: number | null;
  at: string;
}

/** One row as written (the store numbers it). */
export type ContentAuditInput = Omit<ContentAuditEntry, 'seq'>;

export class ContentAuditStore {
  private readonly relaxed: RelaxedWriter;

  constructor(
    private readonly db: Database.Database,
    private readonly onRecorded?: (seq: number) => void,
  ) {
    this.relaxed = new RelaxedWriter(db);
  }

  /** Writes one row; returns its seq. */
  record(entry: ContentAuditInput): number {
    const seq = this.relaxed.run(
      () =>
        this.db
          .prepare(
            `INSERT INTO content_audit (action, server_id, server_name, target, detail, conversation_id, outcome, error, chars, at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            entry.action,
            entry.serverId,
            entry.serverName,
            entry.target,
            entry.detail ?? null,
            entry.conversationId ?? null,
            entry.outcome,
            entry.error ?? null,
            entry.chars ?? null,
            entry.at,
          ).lastInsertRowid,
    );
    this.onRecorded?.(Number(seq));
    return Number(seq);
  }

  /** Newest first, `limit` entries older than `before`; `nextBefore` only when an older one exists. */
  page(query: { limit: number; before?: number }): ContentAuditPage {
    const rows = this.db
      .prepare('SELECT * FROM content_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?')
      .all(...pageBounds(query.before, query.limit)) as Row[];
    return seqPage(rows, query.limit, toEntry);
  }
}

function toEntry(row: Row): ContentAuditEntry {
  return {
    seq: row.seq,
    action: row.action,
    serverId: row.server_id,
    serverName: row.server_name,
    target: row.target,
    ...(row.detail !== null ? { detail: row.detail } : {}),
    ...(row.conversation_id !== null ? { conversationId: row.conversation_id } : {}),
    outcome: row.outcome,
    ...(row.error !== null ? { error: row.error } : {}),
    ...(row.chars !== null ? { chars: row.chars } : {}),
    at: row.at,
  };
}
