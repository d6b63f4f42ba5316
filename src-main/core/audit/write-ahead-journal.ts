/**
 * The write-ahead journal of the tool-call audit trail: a file next to the database holding, one JSON
 * line each, the rows of calls that are not in the database yet.
 *
 * Why a file in front of SQLite: the decision row of a call must be safe before the call is sent, and
 * a SQLite commit of one row costs more than the whole round trip of a local tool call, while one
 * `write()` of a line is a fraction of it and exactly as safe as the relaxed commit it replaces: once it returns, the line is in the OS's file cache and survives Patchbay crashing or being
 * killed; only an OS crash or power cut can lose the last lines. The lines of the calls of one turn of
 * the event loop share that write (32 calls in flight: one system call). The rows move into the
 * database in batches (`AuditStore.flush`), after which the journal starts over.
 *
 * Positional writes (no O_APPEND) so that starting over is a truncate that works on every platform.
 */
import fs from 'node:fs';
import type { AuditDecisionRow, AuditOutcomeRow } from './audit-rows';

/** One line: a call's decision row, and its outcome when it was known at once (a refused call). */
export interface JournalEntry {
  row: AuditDecisionRow;
  outcome?: Omit<AuditOutcomeRow, 'callId'>;
}

/** Lines appended in one turn of the event loop, written together. */
interface Group {
  entries: JournalEntry[];
  lines: string[];
  written: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class WriteAheadJournal {
  private fd: number | undefined;
  private offset = 0;
  private group: Group | undefined;

  /**
   * Opens `file` empty: read what a previous run left with `WriteAheadJournal.leftover` first.
   * `onFailed`: the entries of a group that could not be written, told before its promise rejects.
   */
  constructor(
    private readonly file: string,
    private readonly onFailed: (entries: JournalEntry[]) => void = () => {},
  ) {
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

  /**
   * Appends one entry. Entries appended in the same turn of the event loop go out with one write at
   * its end (`process.nextTick`, before the turn's stdin writes, which wait for their own tick after
   * this promise): 32 calls in flight cost one system call, not 32. Resolves once the line is in the
   * file; rejects when it cannot be (the call must then not be sent).
   */
  append(entry: JournalEntry): Promise<void> {
    if (this.fd === undefined) return Promise.reject(new Error('The audit journal is closed'));
    let group = this.group;
    if (!group) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const written = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
      group = this.group = { entries: [], lines: [], written, resolve, reject };
      process.nextTick(() => this.writePending());
    }
    group.entries.push(entry);
    group.lines.push(JSON.stringify(entry));
    return group.written;
  }

  /** Writes the lines appended this turn now (the nextTick does it otherwise; a batch does it first). */
  writePending(): void {
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    try {
      if (this.fd === undefined) throw new Error('The audit journal is closed');
      // Written as a string: no Buffer made per call (the lines are JSON, so their UTF-8 length is known below).
      const text = `${group.lines.join('\n')}\n`;
      const size = Buffer.byteLength(text);
      const written = fs.writeSync(this.fd, text, this.offset);
      if (written !== size) {
        // A short write (a full disk): not one of these calls may go out, so none of their lines may
        // stay behind to be read as "sent" at the next start.
        fs.ftruncateSync(this.fd, this.offset);
        throw new Error(`only ${written} of ${size} bytes of the audit journal were written`);
      }
      this.offset += written;
    } catch (error) {
      this.onFailed(group.entries);
      group.reject(error as Error);
      return;
    }
    group.resolve();
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
    this.writePending();
    fs.closeSync(this.fd);
    this.fd = undefined;
    if (empty) fs.rmSync(this.file, { force: true });
  }
}
