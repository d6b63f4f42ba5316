import type Database from 'better-sqlite3';
import type { ChatBlock, ChatMessage, ChatUsage, MessagePage, MessageRole, MessageStatus } from '@contract';
import { RelaxedWriter } from '../store/relaxed-write';
import { pageBounds, splitPage } from '../store/seq-page';

interface Row {
  id: number;
  conversation_id: string;
  seq: number;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  model: string | null;
  provider_id: string | null;
  stop_reason: string | null;
  usage: string | null;
  created_at: string;
}

const COLUMNS = 'id, conversation_id, seq, role, content, status, model, provider_id, stop_reason, usage, created_at';

function parseContent(text: string): ChatBlock[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as ChatBlock[]) : [];
  } catch {
    return [{ type: 'text', text: '[This message could not be read from the database.]' }];
  }
}

function fromRow(row: Row): ChatMessage {
  let usage: ChatUsage | undefined;
  try {
    usage = row.usage ? (JSON.parse(row.usage) as ChatUsage) : undefined;
  } catch {
    usage = undefined;
  }
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    role: row.role,
    content: parseContent(row.content),
    status: row.status,
    createdAt: row.created_at,
    ...(row.model ? { model: row.model } : {}),
    ...(row.provider_id ? { providerId: row.provider_id } : {}),
    ...(row.stop_reason ? { stopReason: row.stop_reason } : {}),
    ...(usage ? { usage } : {}),
  };
}

export interface NewMessage {
  conversationId: string;
  role: MessageRole;
  content: ChatBlock[];
  status: MessageStatus;
  model?: string;
  /** The provider that wrote an answer. */
  providerId?: string;
}

/** How a finished (or interrupted) answer is written. */
export interface FinishedMessage {
  content: ChatBlock[];
  status: Exclude<MessageStatus, 'streaming'>;
  stopReason?: string | null;
  usage?: ChatUsage;
}

/**
 * The `chat_messages` table: append (keeping the conversation's count and `updated_at` in the same
 * transaction), checkpoint a streaming answer, finish it, page by keyset (seq), recover at start.
 */
export class MessageRepository {
  private readonly statements;
  private readonly relaxed: RelaxedWriter;

  constructor(private readonly db: Database.Database) {
    this.relaxed = new RelaxedWriter(db);
    this.statements = {
      nextSeq: db.prepare<[string], { next: number }>(
        'SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM chat_messages WHERE conversation_id = ?',
      ),
      insert: db.prepare<[string, number, MessageRole, string, MessageStatus, string | null, string | null, string, string]>(
        'INSERT INTO chat_messages (conversation_id, seq, role, content, status, model, provider_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      touch: db.prepare<[string, string]>('UPDATE conversations SET message_count = message_count + 1, updated_at = ? WHERE id = ?'),
      get: db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM chat_messages WHERE id = ?`),
      checkpoint: db.prepare<[string, string, number]>(
        "UPDATE chat_messages SET content = ?, updated_at = ? WHERE id = ? AND status = 'streaming'",
      ),
      finish: db.prepare<[string, MessageStatus, string | null, string | null, string, number]>(
        'UPDATE chat_messages SET content = ?, status = ?, stop_reason = ?, usage = ?, updated_at = ? WHERE id = ?',
      ),
      pageBefore: db.prepare<[string, number, number], Row>(
        `SELECT ${COLUMNS} FROM chat_messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ),
      recover: db.prepare<[string]>("UPDATE chat_messages SET status = 'interrupted', updated_at = ? WHERE status = 'streaming'"),
    };
  }

  /**
   * Appends a message. `durable`: committed with the database's full sync (what the user typed,
   * tool results); otherwise relaxed (the first checkpoint of a streaming answer, see store/relaxed-write.ts).
   */
  append(message: NewMessage, now: Date, durable = true): ChatMessage {
    const at = now.toISOString();
    const write = () =>
      this.db.transaction(() => {
        const { next } = this.statements.nextSeq.get(message.conversationId)!;
        const { lastInsertRowid } = this.statements.insert.run(
          message.conversationId,
          next,
          message.role,
          JSON.stringify(message.content),
          message.status,
          message.model ?? null,
          message.providerId ?? null,
          at,
          at,
        );
        this.statements.touch.run(at, message.conversationId);
        return Number(lastInsertRowid);
      })();
    const id = durable ? write() : this.relaxed.run(write);
    return this.get(id)!;
  }

  /** Appends several messages in one transaction (a prompt's messages and the user's own), durably. */
  appendAll(messages: readonly NewMessage[], now: Date): ChatMessage[] {
    return this.db.transaction(() => messages.map((message) => this.append(message, now)))();
  }

  get(id: number): ChatMessage | undefined {
    const row = this.statements.get.get(id);
    return row ? fromRow(row) : undefined;
  }

  /** Saves a streaming answer's content so far (relaxed durability: see store/relaxed-write.ts). */
  checkpoint(id: number, content: ChatBlock[], now: Date): void {
    const json = JSON.stringify(content);
    this.relaxed.run(() => this.statements.checkpoint.run(json, now.toISOString(), id));
  }

  /**
   * Writes an answer's final content and status. Relaxed like the checkpoints: it survives the app
   * being killed at once, and a power cut from the next full commit on (the user's next message or
   * the tool results), so finishing an answer never waits on the disk (see store/relaxed-write.ts).
   */
  finish(id: number, finished: FinishedMessage, now: Date): ChatMessage {
    const content = JSON.stringify(finished.content);
    const usage = finished.usage ? JSON.stringify(finished.usage) : null;
    this.relaxed.run(() => this.statements.finish.run(content, finished.status, finished.stopReason ?? null, usage, now.toISOString(), id));
    return this.get(id)!;
  }

  /** Up to `limit` messages before `beforeSeq` (newest page when omitted), returned oldest first. */
  page(conversationId: string, beforeSeq: number | undefined, limit: number): MessagePage {
    const page = splitPage(this.statements.pageBefore.all(conversationId, ...pageBounds(beforeSeq, limit)), limit);
    return { messages: page.rows.reverse().map(fromRow), hasMore: page.hasMore };
  }

  /** The newest `limit` messages, oldest first: what a model request is built from. */
  recent(conversationId: string, limit: number): ChatMessage[] {
    return this.page(conversationId, undefined, limit).messages;
  }

  /** At start: answers left `streaming` by a killed host become `interrupted` (kept, never dropped). */
  recoverInterrupted(now: Date): number {
    return this.statements.recover.run(now.toISOString()).changes;
  }
}
