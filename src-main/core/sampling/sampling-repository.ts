/**
 * Storage for sampling: per-server policies (`sampling_policies`) and the audit trail of every
 * sampling and elicitation decision (`interaction_audit`). Callers pass already-redacted JSON.
 */
import type Database from 'better-sqlite3';
import type {
  InteractionAuditEntry,
  InteractionAuditPage,
  InteractionOutcome,
  InteractionStep,
  SamplingPolicy,
  SamplingPolicyMode,
} from '@contract';
import { pageBounds, seqPage } from '../store/seq-page';

interface PolicyRow {
  server_id: string;
  mode: SamplingPolicyMode;
  rate_per_minute: number | null;
  max_tokens_cap: number | null;
}

interface AuditRow {
  seq: number;
  kind: 'sampling' | 'elicitation';
  server_id: string;
  server_name: string;
  tool_call: string | null;
  decided_by: 'user' | 'policy' | 'host';
  outcome: InteractionOutcome;
  request_json: string;
  response_json: string | null;
  note: string | null;
  steps_json: string | null;
  requested_at: string;
  decided_at: string;
}

/** One audit row as written. */
export type InteractionAuditInput = Omit<InteractionAuditEntry, 'seq'>;

export class SamplingRepository {
  constructor(private readonly db: Database.Database) {}

  /** The server's policy; the default (ask every time, no limits) when none is stored. */
  policy(serverId: string): SamplingPolicy {
    const row = this.db.prepare('SELECT * FROM sampling_policies WHERE server_id = ?').get(serverId) as PolicyRow | undefined;
    return row ? toPolicy(row) : { serverId, mode: 'ask' };
  }

  policies(): SamplingPolicy[] {
    return (this.db.prepare('SELECT * FROM sampling_policies ORDER BY server_id').all() as PolicyRow[]).map(toPolicy);
  }

  setPolicy(policy: SamplingPolicy, now: Date): void {
    if (policy.mode === 'ask' && policy.ratePerMinute === undefined && policy.maxTokensCap === undefined) {
      this.forget(policy.serverId); // the default needs no row
      return;
    }
    this.db
      .prepare(
        `INSERT INTO sampling_policies (server_id, mode, rate_per_minute, max_tokens_cap, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (server_id) DO UPDATE SET mode = excluded.mode, rate_per_minute = excluded.rate_per_minute,
           max_tokens_cap = excluded.max_tokens_cap, updated_at = excluded.updated_at`,
      )
      .run(policy.serverId, policy.mode, policy.ratePerMinute ?? null, policy.maxTokensCap ?? null, now.toISOString());
  }

  forget(serverId: string): void {
    this.db.prepare('DELETE FROM sampling_policies WHERE server_id = ?').run(serverId);
  }

  record(entry: InteractionAuditInput): void {
    this.db
      .prepare(
        `INSERT INTO interaction_audit (kind, server_id, server_name, tool_call, decided_by, outcome, request_json, response_json, note, steps_json, requested_at, decided_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.kind,
        entry.serverId,
        entry.serverName,
        entry.toolCall ?? null,
        entry.decidedBy,
        entry.outcome,
        entry.request,
        entry.response ?? null,
        entry.note ?? null,
        entry.steps ? JSON.stringify(entry.steps) : null,
        entry.requestedAt,
        entry.decidedAt,
      );
  }

  /** Newest first, `limit` entries older than `before`; `nextBefore` only when an older entry exists. */
  audit(query: { before?: number; limit: number }): InteractionAuditPage {
    const rows = this.db
      .prepare('SELECT * FROM interaction_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?')
      .all(...pageBounds(query.before, query.limit)) as AuditRow[];
    return seqPage(rows, query.limit, toEntry);
  }
}

/** Absent columns become absent fields, so the renderer can test `entry.note` rather than null. */
function toEntry(r: AuditRow): InteractionAuditEntry {
  return {
    seq: r.seq,
    kind: r.kind,
    serverId: r.server_id,
    serverName: r.server_name,
    ...(r.tool_call ? { toolCall: r.tool_call } : {}),
    decidedBy: r.decided_by,
    outcome: r.outcome,
    request: r.request_json,
    ...(r.response_json !== null ? { response: r.response_json } : {}),
    ...(r.note ? { note: r.note } : {}),
    ...stepsOf(r.steps_json),
    requestedAt: r.requested_at,
    decidedAt: r.decided_at,
  };
}

/** The stored steps; a row without (older, elicitation) or with unreadable ones has none. */
function stepsOf(json: string | null): { steps?: InteractionStep[] } {
  if (json === null) return {};
  try {
    const steps: unknown = JSON.parse(json);
    return Array.isArray(steps) ? { steps: steps as InteractionStep[] } : {};
  } catch {
    return {};
  }
}

function toPolicy(row: PolicyRow): SamplingPolicy {
  return {
    serverId: row.server_id,
    mode: row.mode,
    ...(row.rate_per_minute !== null ? { ratePerMinute: row.rate_per_minute } : {}),
    ...(row.max_tokens_cap !== null ? { maxTokensCap: row.max_tokens_cap } : {}),
  };
}
