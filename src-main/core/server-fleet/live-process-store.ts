import type Database from 'better-sqlite3';
import type { LiveProcessRecord, LiveProcessStore } from '../servers/process/process-reaper';
import { RelaxedWriter } from '../store/relaxed-write';

interface Row {
  pid: number;
  server_id: string;
  pgid: number;
  start_time: string | null;
  command: string;
  recorded_at: number;
}

/**
 * Live server process groups in SQLite, written as each server spawns and removed as it exits, so a
 * Patchbay that was killed outright can reap the leftovers at its next start. Relaxed commits: a
 * record only matters after Patchbay itself died, which a NORMAL commit in WAL survives, and 50
 * servers starting must not cost 50 fsyncs on the main thread.
 */
export class SqliteLiveProcessStore implements LiveProcessStore {
  private readonly relaxed: RelaxedWriter;
  private readonly insert: Database.Statement<[number, string, number, string | null, string, number]>;
  private readonly delete: Database.Statement<[number]>;

  constructor(private readonly db: Database.Database) {
    this.relaxed = new RelaxedWriter(db);
    this.insert = db.prepare(
      'INSERT OR REPLACE INTO live_processes (pid, server_id, pgid, start_time, command, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.delete = db.prepare('DELETE FROM live_processes WHERE pid = ?');
  }

  add(record: LiveProcessRecord): void {
    this.relaxed.run(() => this.insert.run(record.pid, record.serverId, record.pgid, record.startTime, record.command, record.recordedAt));
  }

  remove(pid: number): void {
    this.relaxed.run(() => this.delete.run(pid));
  }

  list(): LiveProcessRecord[] {
    return this.db
      .prepare<[], Row>('SELECT * FROM live_processes')
      .all()
      .map((row) => ({
        pid: row.pid,
        serverId: row.server_id,
        pgid: row.pgid,
        startTime: row.start_time,
        command: row.command,
        recordedAt: row.recorded_at,
      }));
  }
}
