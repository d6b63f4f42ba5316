import type Database from 'better-sqlite3';

/**
 * Runs frequent, small writes with `synchronous = NORMAL`, then restores the connection's setting.
 *
 * Why: the database runs WAL with `synchronous = FULL` (an fsync per commit). Some writes come often
 * and must not block the main thread on the disk: streamed-answer checkpoints (about every second),
 * the audit row written before every tool call, the live-process record of every spawned server. In
 * WAL mode a NORMAL commit still survives the app being killed (the WAL frames are in the OS's file
 * cache); it is exposed only to a power cut, and the next FULL commit makes it durable too. What the
 * user typed, settings and configurations stay FULL.
 *
 * better-sqlite3 is synchronous: no other statement can run between the two pragmas. Inside an open
 * transaction the level cannot change, so the write simply runs.
 */
export class RelaxedWriter {
  private readonly relax: Database.Statement | undefined;
  private readonly restore: Database.Statement | undefined;

  constructor(private readonly db: Database.Database) {
    const current = Number(db.pragma('synchronous', { simple: true }));
    if (current > 1) {
      this.relax = db.prepare('PRAGMA synchronous = NORMAL');
      // `current` is SQLite's own integer (2 FULL, 3 EXTRA), not input.
      this.restore = db.prepare(`PRAGMA synchronous = ${current}`);
    }
  }

  run<T>(write: () => T): T {
    if (!this.relax || !this.restore || this.db.inTransaction) return write();
    this.relax.run();
    try {
      return write();
    } finally {
      this.restore.run();
    }
  }
}
