import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ChatError, ConversationCursor } from '@contract';

/** A conversation as stored (the service adds whether a turn runs). */
export interface StoredConversation {
  id: string;
  title: string;
  serverIds: string[] | null;
  /** The tool set it uses (absent: every offered tool). */
  toolSetId?: string;
  /** The model chosen for it (absent: the default). */
  providerId?: string;
  model?: string;
  lastError: ChatError | undefined;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
  /** In search results: where a message's text has the query (absent when the title matched). */
  match?: string;
}

interface Row {
  id: string;
  title: string;
  server_ids: string | null;
  tool_set_id: string | null;
  provider_id: string | null;
  model: string | null;
  last_error: string | null;
  message_count: number;
  created_at: string;
  updated_at: string;
  /** Search only: the first message text containing the query. */
  match_text?: string | null;
}

/** Characters of a match shown before and after the query in a search result. */
const SNIPPET_BEFORE = 40;
const SNIPPET_AFTER = 100;

/** A one-line piece of `text` around the first `query` (case-insensitive), with … where it was cut. */
export function snippetAround(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const at = Math.max(0, flat.toLowerCase().indexOf(query.toLowerCase()));
  const start = Math.max(0, at - SNIPPET_BEFORE);
  const end = Math.min(flat.length, at + query.length + SNIPPET_AFTER);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

/**
 * The first text block of the conversation's messages containing the pattern (`?`), oldest first:
 * what a search by content matched. Only text the user and the model wrote, not the JSON around it.
 */
const MATCHED_TEXT = `(SELECT json_extract(b.value, '$.text') FROM chat_messages m, json_each(m.content) b
  WHERE m.conversation_id = c.id AND json_extract(b.value, '$.type') = 'text' AND json_extract(b.value, '$.text') LIKE ? ESCAPE '\\'
  ORDER BY m.seq LIMIT 1)`;

function parseJson<T>(text: string | null): T | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined; // a hand-edited value must not break the list
  }
}

function fromRow(row: Row, query?: string): StoredConversation {
  const serverIds = parseJson<unknown>(row.server_ids);
  const titleMatched = query !== undefined && row.title.toLowerCase().includes(query.toLowerCase());
  return {
    id: row.id,
    title: row.title,
    serverIds: Array.isArray(serverIds) ? serverIds.filter((id): id is string => typeof id === 'string') : null,
    ...(row.tool_set_id ? { toolSetId: row.tool_set_id } : {}),
    ...(row.provider_id && row.model ? { providerId: row.provider_id, model: row.model } : {}),
    lastError: parseJson<ChatError>(row.last_error),
    messageCount: row.message_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(query !== undefined && !titleMatched && row.match_text ? { match: snippetAround(row.match_text, query) } : {}),
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
      // A search: the title or any message's text (see MATCHED_TEXT); SQLite lets WHERE use the column's alias.
      searchFirst: db.prepare<[string, string, number], Row>(
        `SELECT c.*, ${MATCHED_TEXT} AS match_text FROM conversations c WHERE (c.title LIKE ? ESCAPE '\\' OR match_text IS NOT NULL) ORDER BY c.updated_at DESC, c.id DESC LIMIT ?`,
      ),
      searchAfter: db.prepare<[string, string, string, string, number], Row>(
        `SELECT c.*, ${MATCHED_TEXT} AS match_text FROM conversations c WHERE (c.updated_at, c.id) < (?, ?) AND (c.title LIKE ? ESCAPE '\\' OR match_text IS NOT NULL) ORDER BY c.updated_at DESC, c.id DESC LIMIT ?`,
      ),
      empty: db.prepare<[string], Row>(
        'SELECT * FROM conversations WHERE message_count = 0 AND title = ? ORDER BY updated_at DESC LIMIT 1',
      ),
      get: db.prepare<[string], Row>('SELECT * FROM conversations WHERE id = ?'),
      insert: db.prepare<[string, string, string | null, string | null, string | null, string, string]>(
        'INSERT INTO conversations (id, title, server_ids, tool_set_id, provider_id, model, last_error, message_count, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, ?, NULL, 0, ?, ?)',
      ),
      toolSet: db.prepare<[string | null, string]>('UPDATE conversations SET tool_set_id = ? WHERE id = ?'),
      forgetToolSet: db.prepare<[string], { id: string }>('UPDATE conversations SET tool_set_id = NULL WHERE tool_set_id = ? RETURNING id'),
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
   * Most recently updated first (ties by id), after `after` when given, only those whose title or
   * messages' text contains `query` (SQLite's LIKE: case-insensitive for ASCII letters; its wildcards
   * in `query` match themselves). A conversation found by its messages says where (`match`).
   */
  list({ after, query = '', limit }: { after?: ConversationCursor; query?: string; limit: number }): StoredConversation[] {
    if (query === '') {
      const rows = after ? this.statements.after.all(after.updatedAt, after.id, '%', limit) : this.statements.first.all('%', limit);
      return rows.map((row) => fromRow(row));
    }
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = after
      ? this.statements.searchAfter.all(pattern, after.updatedAt, after.id, pattern, limit)
      : this.statements.searchFirst.all(pattern, pattern, limit);
    return rows.map((row) => fromRow(row, query));
  }

  /** The newest conversation with this title and no messages yet (an unused "New conversation"). */
  findEmpty(title: string): StoredConversation | undefined {
    const row = this.statements.empty.get(title);
    return row ? fromRow(row) : undefined;
  }

  get(id: string): StoredConversation | undefined {
    const row = this.statements.get.get(id);
    return row ? fromRow(row) : undefined;
  }

  /** A new conversation, with the model it starts with (absent: it follows the default). */
  create(title: string, now: Date, choice?: { providerId: string; model: string }, toolSetId?: string): StoredConversation {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    this.statements.insert.run(id, title, toolSetId ?? null, choice?.providerId ?? null, choice?.model ?? null, at, at);
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

  setToolSet(id: string, toolSetId: string | null): StoredConversation | undefined {
    this.statements.toolSet.run(toolSetId, id);
    return this.get(id);
  }

  /** Conversations that used a deleted tool set go back to every offered tool; returns their ids. */
  forgetToolSet(toolSetId: string): string[] {
    return this.statements.forgetToolSet.all(toolSetId).map((row) => row.id);
  }

  setLastError(id: string, error: ChatError | undefined): void {
    this.statements.error.run(error ? JSON.stringify(error) : null, id);
  }

  /** Deletes the conversation and (by cascade) every message of it. */
  remove(id: string): boolean {
    return this.statements.remove.run(id).changes > 0;
  }
}
