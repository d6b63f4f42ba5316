/** The rows of the tool-call audit trail as the store and its write-ahead journal both handle them. */
import type { AuditEntry, AuditOutcome } from '@contract';

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
  /** The call `writeAhead` recorded. */
  callId: string;
  finishedAt: string;
  durationMs: number;
  outcome: Exclude<AuditOutcome, 'running' | 'interrupted'>;
  /** Redacted. */
  outcomeNote?: string;
  resultBytes?: number;
}
