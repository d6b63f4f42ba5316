/**
 * The write-ahead journal of the tool-call audit trail: a file next to the database holding, one JSON
 * line each, the rows of calls that are not in the database yet.
 *
 * Why a file in front of SQLite: the decision row of a call must be safe before the call is sent, and
 * a SQLite commit of one row costs about 85 µs on the bench machine between calls (locks, WAL frames,
 * wal-index — a dozen system calls on cold caches), more than the whole round trip of a local tool
 * call (≈ 70 µs). One `write()` of a line costs 3–13 µs and is exactly as safe as the relaxed commit it
 * replaces: once it returns, the line is in the OS's file cache and survives Patchbay crashing or being
 * killed; only an OS crash or power cut can lose the last lines. The rows move into the database in
 * batches (`AuditStore.flush`), after which the journal starts over.
 *
 * Positional writes (no O_APPEND) so that starting over is a truncate that works on every platform.
 */
import fs from 'node:fs';
import type { AuditDecisionRow, AuditOutcomeRow } from './audit-store';

/** One line: a call's decision row, and its outcome when it was known at once (a refused call). */
export interface JournalEntry {
  row: AuditDecisionRow;
  outcome?: Omit<AuditOutcomeRow, 'callId'>;
}

export class WriteAheadJournal {
  private fd: number | undefined;
  private offset = 0;

  /** Opens `file` empty: read what a previous run left with `WriteAheadJournal.leftover` first. */
  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, 'w', 0o600);
  }

  /** The entries a run that stopped early left in `file` (a torn last line is skipped). */
  static leftover(file: string): JournalEntry[] {
    let text: string;
    try {
      // Only a regular file is a journal (reading a device such as /dev/full would never end).
      if (!fs.statSync(file).isFile()) return [];
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    const entries: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        // A line cut short by a power cut: the call it describes was never sent (its write never returned).
      }
    }
    return entries;
  }

  /** Appends one entry with a single write; throws when it cannot (the call must then not be sent). */
  append(entry: JournalEntry): void {
    if (this.fd === undefined) throw new Error('The audit journal is closed');
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    const written = fs.writeSync(this.fd, line, 0, line.length, this.offset);
    if (written !== line.length) {
      // A short write (a full disk): the line is not whole, so the row is not safe.
      throw new Error(`only ${written} of ${line.length} bytes of the audit journal line were written`);
    }
    this.offset += written;
  }

  /** Every row appended so far is committed to the database: start the file over. */
  clear(): void {
    if (this.fd === undefined || this.offset === 0) return;
    fs.ftruncateSync(this.fd, 0);
    this.offset = 0;
  }

  /** Closes the file and removes it when nothing in it is still needed (`empty`). */
  close(empty: boolean): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
    if (empty) fs.rmSync(this.file, { force: true });
  }
}
