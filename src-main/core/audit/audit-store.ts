/**
 * The tool-call audit trail (table `tool_audit`), write-ahead.
 *
 * `writeAhead` makes the decision row safe before the caller sends `tools/call` — appended to the
 * write-ahead journal, one write for the calls of a turn (see write-ahead-journal.ts for why not a
 * commit per call) — and
 * `finish` records the outcome. Both reach the database in batches: one transaction per
 * `FLUSH_MS`, a call that ended by then as one row with its outcome, after which the journal starts
 * over. Reads flush first. At the next start, rows a stopped run left in the journal are moved in, and
 * every row whose outcome was never written is marked `interrupted` — never re-run.
 *
 * Durability: the journal line and the trail's own commits (`synchronous=NORMAL`, WAL mode) survive
 * Patchbay crashing or being killed; an OS crash or power loss can lose the last rows. FULL here would
 * fsync on every batch for a record whose honest answer after a power cut is "interrupted" anyway.
 * The switch happens on the host's one connection, around each audit transaction: better-sqlite3 is
 * synchronous, so no other statement can run while it is relaxed.
 */
import type Database from 'better-sqlite3';
import { RelaxedWriter } from '../store/relaxed-write';
import type { AuditDecisionRow, AuditOutcomeRow } from './audit-rows';
import { WriteAheadJournal, type JournalEntry } from './write-ahead-journal';
import type { AuditDecider, AuditEntry, AuditOutcome, AuditPage, ToolCallOrigin } from '@contract';
import { pageBounds, seqPage } from '../store/seq-page';

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

/** Decisions and outcomes of this window share one commit. */
const FLUSH_MS = 50;

export class AuditStore {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  /** One transaction (made once: better-sqlite3 builds a transaction function's variants on every call). */
  private readonly writeBatch: () => Map<string, number>;
  /** Audit commits are relaxed (see store/relaxed-write.ts) unless the constructor asks for FULL. */
  private readonly writer: RelaxedWriter | undefined;
  private readonly journal: WriteAheadJournal;
  /** Rows in the journal, not in the database yet, by call id, in call order (with the outcome once known). */
  private ahead = new Map<string, JournalEntry>();
  /** Calls whose decision row is in the database without an outcome: their row's seq. */
  private readonly open = new Map<string, number>();
  /** Outcomes of calls in `open`, for the next batch. */
  private outcomes: AuditOutcomeRow[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * Opens the trail on the host's migrated connection; moves in what a stopped run left in the journal
   * (`<database file>-audit-journal`). `synchronous`: of the audit commits; `FULL` leaves the connection alone.
   */
  constructor(
    private readonly db: Database.Database,
    options: { synchronous?: 'NORMAL' | 'FULL'; journalFile?: string } = {},
  ) {
    this.writer = (options.synchronous ?? 'NORMAL') === 'NORMAL' ? new RelaxedWriter(db) : undefined;
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
    this.writeBatch = db.transaction(() => this.writePending());
    const journalFile = options.journalFile ?? `${db.name}-audit-journal`;
    this.recover(WriteAheadJournal.leftover(journalFile));
    // A decision row whose line could not be written is not kept: its call is refused instead.
    this.journal = new WriteAheadJournal(journalFile, (entries) => {
      for (const entry of entries) if (!entry.outcome && this.ahead.get(entry.row.callId) === entry) this.ahead.delete(entry.row.callId);
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
   * Makes the decision row of an allowed call safe (a journal line, written with the others of this
   * turn) before the caller sends it: resolves once it is. Rejects when it cannot be: the call must then
   * not be sent.
   */
  writeAhead(row: AuditDecisionRow): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The audit trail is closed'));
    const entry = { row };
    this.ahead.set(row.callId, entry);
    this.schedule();
    return this.journal.append(entry);
  }

  /** A call that never left: decision and outcome in one row, in call order with the others. */
  recordRefused(row: AuditDecisionRow, outcome: Omit<AuditOutcomeRow, 'callId'>): void {
    if (this.closed) return;
    const entry = { row, outcome };
    this.ahead.set(row.callId, entry);
    this.schedule();
    // Nothing waits for it (the call did not leave); the next batch moves the row in all the same.
    this.journal.append(entry).catch((error: Error) => console.error('[patchbay] could not journal a refused call:', error.message));
  }

  /** The call's outcome; written with the next batch. */
  finish(outcome: AuditOutcomeRow): void {
    if (this.closed) return;
    const pending = this.ahead.get(outcome.callId);
    if (pending) pending.outcome = outcome;
    else if (this.open.has(outcome.callId)) this.outcomes.push(outcome);
    else return;
    this.schedule();
  }

  /** Writes every waiting decision and outcome now (one transaction); the journal starts over. */
  flush(): void {
    // Lines of this turn first: a row goes into the database only once its call could have left.
    this.journal.writePending();
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.closed || (this.ahead.size === 0 && this.outcomes.length === 0)) return;
    let opened: Map<string, number>;
    try {
      opened = this.relaxed(this.writeBatch);
    } catch (error) {
      // The rows stay in the journal and in memory: the next call's batch, a read or the next start
      // tries again (no timer of its own: a failing disk must not fill the console every 50 ms).
      console.error('[patchbay] could not write the tool-call audit batch:', error);
      return;
    }
    for (const o of this.outcomes) this.open.delete(o.callId);
    for (const [callId, seq] of opened) this.open.set(callId, seq);
    this.ahead = new Map();
    this.outcomes = [];
    this.journal.clear();
  }

  /** Newest first; `running` says which open rows belong to calls in flight (others are interrupted). */
  list(query: { serverId?: string; before?: number; limit: number }, running: (callId: string) => boolean): AuditPage {
    this.flush();
    const rows = this.db
      .prepare<[string | null, string | null, number, number], Row>(
        `SELECT * FROM tool_audit WHERE (? IS NULL OR server_id = ?) AND seq < ? ORDER BY seq DESC LIMIT ?`,
      )
      .all(query.serverId ?? null, query.serverId ?? null, ...pageBounds(query.before, query.limit));
    return seqPage(rows, query.limit, (row) => toEntry(row, running));
  }

  /** Writes what is queued; later writes are dropped (the connection is the host's to close). */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.journal.close(this.ahead.size === 0);
  }

  /**
   * The batch: rows of the journal (with their outcome when they have one), then outcomes of open rows.
   * Returns the rows it left open; the caller applies that only once the transaction committed.
   */
  private writePending(): Map<string, number> {
    const opened = new Map<string, number>();
    for (const { row, outcome } of this.ahead.values()) {
      try {
        const seq = Number(this.insert.run(...insertParams(row, outcome)).lastInsertRowid);
        if (!outcome) opened.set(row.callId, seq);
      } catch (error) {
        // A row the database refuses (a constraint) must not hold back the others; anything that ended
        // the transaction fails the batch.
        if (!this.db.inTransaction) throw error;
        console.error(`[patchbay] the audit trail refused the row of call ${row.callId}:`, error);
      }
    }
    for (const o of this.outcomes) {
      const seq = this.open.get(o.callId);
      if (seq !== undefined) this.update.run(o.finishedAt, o.durationMs, o.outcome, o.outcomeNote ?? null, o.resultBytes ?? null, seq);
    }
    return opened;
  }

  private schedule(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
    this.flushTimer.unref?.();
  }

  /**
   * Rows a stopped run left in the journal go in — those of calls that left without an outcome
   * (`markInterrupted` then says so) — unless its last batch committed them before it stopped: those
   * are among the newest rows.
   */
  private recover(leftover: JournalEntry[]): void {
    if (leftover.length === 0) return;
    const known = this.db.prepare<[number, string], { n: number }>(
      `SELECT COUNT(*) AS n FROM tool_audit WHERE seq > (SELECT COALESCE(MAX(seq), 0) FROM tool_audit) - ? AND call_id = ?`,
    );
    // Rows refused in the meantime share that window: leave room for them.
    const window = leftover.length + 10_000;
    this.db.transaction(() => {
      for (const { row, outcome } of leftover) {
        try {
          if (known.get(window, row.callId)?.n === 0) this.insert.run(...insertParams(row, outcome));
        } catch (error) {
          if (!this.db.inTransaction) throw error;
          console.error('[patchbay] could not move a row of the audit journal into the trail:', error);
        }
      }
    })();
  }

  /** Runs one audit statement (or transaction) with the relaxed sync level, restoring it whatever happens. */
  private relaxed<T>(write: () => T): T {
    return this.writer ? this.writer.run(write) : write();
  }
}

/** The INSERT's parameters, in column order (optional fields NULL). */
function insertParams(row: AuditDecisionRow, outcome?: Omit<AuditOutcomeRow, 'callId'>): unknown[] {
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
