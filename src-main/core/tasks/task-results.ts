/**
 * What tool calls run as tasks returned (table `task_results`, migration 019): the capped preview the
 * Tools tab showed, kept with the task's record so the Tasks tab can show it after the user left the
 * Tools tab, reloaded or restarted. Pruned with its record (ON DELETE CASCADE).
 */
import type Database from 'better-sqlite3';
import type { ToolCallOutcome } from '@contract';

export class TaskResults {
  private readonly insert: Database.Statement<[string, string]>;
  private readonly select: Database.Statement<[string], { outcome_json: string }>;
  private readonly taskOfCall: Database.Statement<[string], { id: string }>;

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT OR REPLACE INTO task_results (task_id, outcome_json) VALUES (?, ?)');
    this.select = db.prepare('SELECT outcome_json FROM task_results WHERE task_id = ?');
    this.taskOfCall = db.prepare("SELECT id FROM tasks WHERE call_id = ? AND side = 'server' AND kind = 'tool'");
  }

  /** Keeps a finished call's outcome when the call ran as a task (other calls have no record to keep it with). */
  keep(outcome: ToolCallOutcome): void {
    const task = this.taskOfCall.get(outcome.callId);
    if (!task) return;
    // What an app got is not needed to show the result again, and may be large.
    const { appResult: _appResult, ...kept } = outcome;
    this.insert.run(task.id, JSON.stringify(kept));
  }

  /** The outcome kept for a task record, or null. */
  get(taskId: string): ToolCallOutcome | null {
    const row = this.select.get(taskId);
    return row ? (JSON.parse(row.outcome_json) as ToolCallOutcome) : null;
  }
}
