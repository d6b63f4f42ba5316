import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ChatError, ConversationCursor } from '../../../src-preload/contract';

/** A conversation as stored (the service adds whether a turn runs). */
export interface StoredConversation {
  id: string;
  title: string;
  serverIds: string[] | null;
  /** The model chosen for it (absent: the default). */
  providerId?: string;
  model?: string;
  lastError: ChatError | undefined;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  title: string;
  server_ids: string | null;
  provider_id: string | null;
  model: string | null;
  last_error: string | null;
  message_count: number;
  created_at: string;
  updated_at: string;
}

function parseJson<T>(text: string | null): T | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined; // a hand-edited value must not break the list
  }
}

function fromRow(row: Row): StoredConversation {
  const serverIds = parseJson<unknown>(row.server_ids);
  return {
    id: row.id,
    title: row.title,
    serverIds: Array.isArray(serverIds) ? serverIds.filter((id): id is string => typeof id === 'string') : null,
    ...(row.provider_id && row.model ? { providerId: row.provider_id, model: row.model } : {}),
    lastError: parseJson<ChatError>(row.last_error),
    messageCount: row.message_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The `conversations` table. Messages are in MessageRepository; deleting a conversation cascades to them. */
export class ConversationRepository {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      // Keyset paging on (updated_at, id), both descending: served by conversations_by_update_id.
      first: db.prepare<[string, number], Row>(
        "SELECT * FROM conversations WHERE title LIKE ? ESCAPE '\\' ORDER BY updated_at DESC, id DESC LIMIT ?",
      ),
      after: db.prepare<[string, string, string, number], Row>(
        "SELECT * FROM conversations WHERE (updated_at, id) < (?, ?) AND title LIKE ? ESCAPE '\\' ORDER BY updated_at DESC, id DESC LIMIT ?",
      ),
      get: db.prepare<[string], Row>('SELECT * FROM conversations WHERE id = ?'),
      insert: db.prepare<[string, string, string | null, string | null, string, string]>(
        'INSERT INTO conversations (id, title, server_ids, provider_id, model, last_error, message_count, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, NULL, 0, ?, ?)',
      ),
      model: db.prepare<[string | null, string | null, string]>('UPDATE conversations SET provider_id = ?, model = ? WHERE id = ?'),
      forgetProvider: db.prepare<[string], { id: string }>(
        'UPDATE conversations SET provider_id = NULL, model = NULL WHERE provider_id = ? RETURNING id',
      ),
      rename: db.prepare<[string, string, string]>('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?'),
      servers: db.prepare<[string | null, string]>('UPDATE conversations SET server_ids = ? WHERE id = ?'),
      error: db.prepare<[string | null, string]>('UPDATE conversations SET last_error = ? WHERE id = ?'),
      remove: db.prepare<[string]>('DELETE FROM conversations WHERE id = ?'),
    };
  }

  /**
   * Most recently updated first (ties by id), after `after` when given, only titles containing `query`
   * (SQLite's LIKE: case-insensitive for ASCII letters; its wildcards in `query` match themselves).
   */
  list({ after, query = '', limit }: { after?: ConversationCursor; query?: string; limit: number }): StoredConversation[] {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = after ? this.statements.after.all(after.updatedAt, after.id, pattern, limit) : this.statements.first.all(pattern, limit);
    return rows.map(fromRow);
  }

  get(id: string): StoredConversation | undefined {
    const row = this.statements.get.get(id);
    return row ? fromRow(row) : undefined;
  }

  /** A new conversation, with the model it starts with (absent: it follows the default). */
  create(title: string, now: Date, choice?: { providerId: string; model: string }): StoredConversation {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    this.statements.insert.run(id, title, choice?.providerId ?? null, choice?.model ?? null, at, at);
    return this.get(id)!;
  }

  setModel(id: string, choice: { providerId: string; model: string }): StoredConversation | undefined {
    this.statements.model.run(choice.providerId, choice.model, id);
    return this.get(id);
  }

  /** Conversations that used a removed provider go back to the default; returns their ids. */
  forgetProvider(providerId: string): string[] {
    return this.statements.forgetProvider.all(providerId).map((row) => row.id);
  }

  rename(id: string, title: string, now: Date): StoredConversation | undefined {
    this.statements.rename.run(title, now.toISOString(), id);
    return this.get(id);
  }

  setServers(id: string, serverIds: string[] | null): StoredConversation | undefined {
    this.statements.servers.run(serverIds === null ? null : JSON.stringify(serverIds), id);
    return this.get(id);
  }

  setLastError(id: string, error: ChatError | undefined): void {
    this.statements.error.run(error ? JSON.stringify(error) : null, id);
  }

  /** Deletes the conversation and (by cascade) every message of it. */
  remove(id: string): boolean {
    return this.statements.remove.run(id).changes > 0;
  }
}
