/**
 * The tool-call audit trail (table `tool_audit`), write-ahead.
 *
 * `writeAhead` commits the decision row before the caller sends `tools/call`; `finish` fills in the
 * outcome. A row still open at the next start is marked `interrupted` and never re-run.
 *
 * Grouped commits: the decision rows of calls that go out in the same turn of the event loop are
 * committed together, in one transaction, before any of them is sent: `writeAhead` resolves with the
 * row's seq only once its group's COMMIT returned, so "committed before sent" holds for each call
 * while 32 calls in flight pay for one commit, not 32. A row the database refuses fails its own call;
 * a failed COMMIT fails every call of the group (none is sent).
 *
 * Durability: the trail's own commits run with `synchronous=NORMAL` (WAL mode). A commit is then
 * in the WAL before `writeAhead` resolves — it survives Patchbay crashing or being killed — but is
 * not fsync'ed by itself: an OS crash or power loss before the next FULL commit or checkpoint can
 * lose the last rows. FULL here would fsync on every call, costing more than the whole tool call
 * (≈0.15 ms per commit on this machine against ≈0.05–0.2 ms per call).
 *
 * The switch happens on the host's one connection, around each audit transaction: better-sqlite3 is
 * synchronous, so no other statement can run while it is relaxed. (A second connection would avoid
 * the switch but pays more: every write by the other connection invalidates its page cache.)
 * Outcomes are batched (one transaction per `OUTCOME_BATCH_MS`): an outcome lost to a crash shows
 * as `interrupted`, which is the honest answer then. Reads flush first.
 */
import type Database from 'better-sqlite3';
import { RelaxedWriter } from '../store/relaxed-write';
import type { AuditDecider, AuditEntry, AuditOutcome, AuditPage, ToolCallOrigin } from '../../../src-preload/contract';

/** The decision row, written before the call leaves: the entry's decision fields, as stored. */
export type AuditDecisionRow = Pick<
  AuditEntry,
  | 'callId'
  | 'serverId'
  | 'serverName'
  | 'tool'
  | 'origin'
  | 'decidedBy'
  | 'decision'
  | 'decisionNote'
  | 'definitionHash'
  | 'argsDigest'
  | 'requestedAt'
> & {
  /** Redacted JSON. */
  argsJson: string;
  decidedAt: string;
};

/** How a call ended. */
export interface AuditOutcomeRow {
  /** The row `writeAhead` returned. */
  seq: number;
  finishedAt: string;
  durationMs: number;
  outcome: Exclude<AuditOutcome, 'running' | 'interrupted'>;
  /** Redacted. */
  outcomeNote?: string;
  resultBytes?: number;
}

interface Row {
  seq: number;
  call_id: string;
  server_id: string;
  server_name: string;
  tool_name: string;
  origin: ToolCallOrigin;
  decided_by: AuditDecider;
  decision: 'allowed' | 'denied';
  decision_note: string | null;
  definition_hash: string | null;
  args_digest: string;
  args_json: string;
  requested_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  outcome: AuditOutcome | null;
  outcome_note: string | null;
  result_bytes: number | null;
}

/** Outcomes that end within this window share one commit. */
const OUTCOME_BATCH_MS = 50;

export class AuditStore {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  /** One transaction each (made once: better-sqlite3 builds a transaction function's variants on every call). */
  private readonly insertGroup: (group: PendingRow[]) => (number | Error)[];
  private readonly updateBatch: (batch: AuditOutcomeRow[]) => void;
  /** Audit commits are relaxed (see store/relaxed-write.ts) unless the constructor asks for FULL. */
  private readonly writer: RelaxedWriter | undefined;
  private queue: AuditOutcomeRow[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** Decision rows waiting for their group's commit (see the module comment). */
  private ahead: PendingRow[] = [];
  private aheadTimer: NodeJS.Immediate | undefined;
  private closed = false;

  /** `synchronous`: of the audit commits (see the module comment); `FULL` leaves the connection alone. */
  constructor(
    private readonly db: Database.Database,
    synchronous: 'NORMAL' | 'FULL' = 'NORMAL',
  ) {
    this.writer = synchronous === 'NORMAL' ? new RelaxedWriter(db) : undefined;
    // Positional parameters: named ones cost an object with every field per row.
    this.insert = this.db.prepare(
      `INSERT INTO tool_audit (call_id, server_id, server_name, tool_name, origin, decided_by, decision, decision_note,
         definition_hash, args_digest, args_json, requested_at, decided_at, finished_at, duration_ms, outcome, outcome_note, result_bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.update = this.db.prepare(
      `UPDATE tool_audit SET finished_at = ?, duration_ms = ?, outcome = ?, outcome_note = ?, result_bytes = ?
       WHERE seq = ? AND outcome IS NULL`,
    );
    this.insertGroup = db.transaction((group: PendingRow[]) =>
      group.map(({ row }) => {
        try {
          return Number(this.insert.run(...insertParams(row)).lastInsertRowid);
        } catch (error) {
          // A refused row (a constraint) fails its own call; anything that ended the transaction fails them all.
          if (!this.db.inTransaction) throw error;
          return error as Error;
        }
      }),
    );
    this.updateBatch = db.transaction((batch: AuditOutcomeRow[]) => {
      for (const o of batch) this.update.run(o.finishedAt, o.durationMs, o.outcome, o.outcomeNote ?? null, o.resultBytes ?? null, o.seq);
    });
  }

  /** At host start: every call whose outcome was never written becomes "interrupted — outcome unknown". */
  markInterrupted(): number {
    return this.db
      .prepare(
        `UPDATE tool_audit SET outcome = 'interrupted', outcome_note = 'Patchbay stopped while the call was running: outcome unknown' WHERE outcome IS NULL`,
      )
      .run().changes;
  }

  /**
   * Commits the decision row of an allowed call, with the other rows of this turn of the event loop;
   * resolves with its seq (for `finish`) once that commit is in the WAL. Rejects when the row or the
   * commit failed: the call must then not be sent.
   */
  writeAhead(row: AuditDecisionRow): Promise<number> {
    if (this.closed) return Promise.reject(new Error('The audit trail is closed'));
    return new Promise((resolve, reject) => {
      this.ahead.push({ row, resolve, reject });
      this.aheadTimer ??= setImmediate(() => this.commitAhead());
    });
  }

  /** A call that never left: decision and outcome in one row. */
  recordRefused(row: AuditDecisionRow, outcome: Omit<AuditOutcomeRow, 'seq'>): void {
    if (this.closed) return;
    this.relaxed(() => this.insert.run(...insertParams(row, outcome)));
  }

  /** Commits the waiting decision rows as one transaction and tells each caller how its row fared. */
  commitAhead(): void {
    if (this.aheadTimer) clearImmediate(this.aheadTimer);
    this.aheadTimer = undefined;
    const group = this.ahead;
    if (group.length === 0) return;
    this.ahead = [];
    let seqs: (number | Error)[];
    try {
      seqs = this.relaxed(() => this.insertGroup(group));
    } catch (error) {
      for (const pending of group) pending.reject(error as Error);
      return;
    }
    group.forEach((pending, i) => {
      const seq = seqs[i];
      if (typeof seq === 'number') pending.resolve(seq);
      else pending.reject(seq);
    });
  }

  /** Queues the outcome; written with the others that end within `OUTCOME_BATCH_MS`. */
  finish(outcome: AuditOutcomeRow): void {
    if (this.closed) return;
    this.queue.push(outcome);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => this.flush(), OUTCOME_BATCH_MS);
    this.flushTimer.unref?.();
  }

  /** Writes every queued outcome now (one transaction). */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.closed || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.relaxed(() => this.updateBatch(batch));
  }

  /** Newest first; `running` says which open rows belong to calls in flight (others are interrupted). */
  list(query: { serverId?: string; before?: number; limit: number }, running: (callId: string) => boolean): AuditPage {
    this.flush();
    const rows = this.db
      .prepare<[string | null, string | null, number, number], Row>(
        `SELECT * FROM tool_audit WHERE (? IS NULL OR server_id = ?) AND seq < ? ORDER BY seq DESC LIMIT ?`,
      )
      .all(query.serverId ?? null, query.serverId ?? null, query.before ?? Number.MAX_SAFE_INTEGER, query.limit + 1);
    const page = rows.slice(0, query.limit).map((row) => toEntry(row, running));
    return { entries: page, ...(rows.length > query.limit ? { nextBefore: page[page.length - 1].seq } : {}) };
  }

  /** Writes what is queued; later writes are dropped (the connection is the host's to close). */
  close(): void {
    if (this.closed) return;
    this.commitAhead();
    this.flush();
    this.closed = true;
  }

  /** Runs one audit statement (or transaction) with the relaxed sync level, restoring it whatever happens. */
  private relaxed<T>(write: () => T): T {
    return this.writer ? this.writer.run(write) : write();
  }
}

/** A decision row waiting for its group's commit. */
interface PendingRow {
  row: AuditDecisionRow;
  resolve(seq: number): void;
  reject(error: Error): void;
}

/** The INSERT's parameters, in column order (optional fields NULL). */
function insertParams(row: AuditDecisionRow, outcome?: Omit<AuditOutcomeRow, 'seq'>): unknown[] {
  return [
    row.callId,
    row.serverId,
    row.serverName,
    row.tool,
    row.origin,
    row.decidedBy,
    row.decision,
    row.decisionNote ?? null,
    row.definitionHash ?? null,
    row.argsDigest,
    row.argsJson,
    row.requestedAt,
    row.decidedAt,
    outcome?.finishedAt ?? null,
    outcome?.durationMs ?? null,
    outcome?.outcome ?? null,
    outcome?.outcomeNote ?? null,
    outcome?.resultBytes ?? null,
  ];
}

function toEntry(row: Row, running: (callId: string) => boolean): AuditEntry {
  const outcome: AuditOutcome = row.outcome ?? (running(row.call_id) ? 'running' : 'interrupted');
  return {
    seq: row.seq,
    callId: row.call_id,
    serverId: row.server_id,
    serverName: row.server_name,
    tool: row.tool_name,
    origin: row.origin,
    decidedBy: row.decided_by,
    decision: row.decision,
    ...(row.decision_note ? { decisionNote: row.decision_note } : {}),
    ...(row.definition_hash ? { definitionHash: row.definition_hash } : {}),
    argsDigest: row.args_digest,
    args: row.args_json,
    requestedAt: row.requested_at,
    ...(row.finished_at ? { finishedAt: row.finished_at } : {}),
    ...(row.duration_ms !== null ? { durationMs: row.duration_ms } : {}),
    outcome,
    ...(row.outcome_note ? { outcomeNote: row.outcome_note } : {}),
    ...(row.result_bytes !== null ? { resultBytes: row.result_bytes } : {}),
  };
}
