import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ToolSetMembers } from '@contract';

/** A tool set as stored. */
export interface StoredToolSet {
  id: string;
  name: string;
  members: ToolSetMembers;
}

interface Row {
  id: string;
  name: string;
  members: string;
}

/**
 * Members read back from JSON (a JSON column, so a new member kind needs no schema migration); a
 * hand-edited value that is not the expected shape reads as empty.
 */
function parseMembers(text: string): ToolSetMembers {
  try {
    const value = JSON.parse(text) as Partial<ToolSetMembers>;
    const known = value.addedLater?.knownServerIds;
    return {
      servers: Array.isArray(value.servers) ? value.servers.filter((s) => typeof s?.id === 'string') : [],
      tools: Array.isArray(value.tools) ? value.tools.filter((t) => typeof t?.serverId === 'string' && typeof t?.tool === 'string') : [],
      // Absent in sets saved before "servers added later" existed: they read as not taking them in.
      ...(Array.isArray(known) ? { addedLater: { knownServerIds: known.filter((id) => typeof id === 'string') } } : {}),
    };
  } catch {
    return { servers: [], tools: [] };
  }
}

/** The `tool_sets` table, and the tool set each conversation uses (`conversations.tool_set_id`). */
export class ToolSetRepository {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      list: db.prepare<[], Row>('SELECT id, name, members FROM tool_sets ORDER BY name COLLATE NOCASE, created_at'),
      get: db.prepare<[string], Row>('SELECT id, name, members FROM tool_sets WHERE id = ?'),
      insert: db.prepare<[string, string, string, string]>('INSERT INTO tool_sets (id, name, members, created_at) VALUES (?, ?, ?, ?)'),
      update: db.prepare<[string, string, string]>('UPDATE tool_sets SET name = ?, members = ? WHERE id = ?'),
      remove: db.prepare<[string]>('DELETE FROM tool_sets WHERE id = ?'),
    };
  }

  list(): StoredToolSet[] {
    return this.statements.list.all().map((row) => ({ id: row.id, name: row.name, members: parseMembers(row.members) }));
  }

  get(id: string): StoredToolSet | undefined {
    const row = this.statements.get.get(id);
    return row ? { id: row.id, name: row.name, members: parseMembers(row.members) } : undefined;
  }

  create(name: string, members: ToolSetMembers, now: Date): StoredToolSet {
    const id = crypto.randomUUID();
    this.statements.insert.run(id, name, JSON.stringify(members), now.toISOString());
    return { id, name, members };
  }

  /** Replaces a set's name and members; false when there is no such set. */
  update(id: string, name: string, members: ToolSetMembers): boolean {
    return this.statements.update.run(name, JSON.stringify(members), id).changes > 0;
  }

  remove(id: string): boolean {
    return this.statements.remove.run(id).changes > 0;
  }
}
