/**
 * What the user typed in a conversation's message box and has not sent (table `chat_drafts`,
 * migration 019), so a reload or a restart gives it back. Key: the conversation id, or '' for the box
 * before any conversation exists.
 */
import type Database from 'better-sqlite3';

export class DraftRepository {
  private readonly upsert: Database.Statement<[string, string, string]>;
  private readonly remove: Database.Statement<[string]>;
  private readonly select: Database.Statement<[], { draft_key: string; text: string }>;

  constructor(db: Database.Database) {
    this.upsert = db.prepare(
      `INSERT INTO chat_drafts (draft_key, text, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (draft_key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
    );
    this.remove = db.prepare('DELETE FROM chat_drafts WHERE draft_key = ?');
    this.select = db.prepare('SELECT draft_key, text FROM chat_drafts');
  }

  /** Keeps the text (an empty one, e.g. after sending, removes the draft). */
  save(key: string, text: string, now: Date): void {
    if (text === '') this.remove.run(key);
    else this.upsert.run(key, text, now.toISOString());
  }

  /** Forgets a conversation's draft (it was deleted). */
  forget(key: string): void {
    this.remove.run(key);
  }

  /** Every draft by key. */
  all(): Record<string, string> {
    return Object.fromEntries(this.select.all().map((row) => [row.draft_key, row.text]));
  }
}
