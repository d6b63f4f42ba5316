/**
 * Standing decisions in SQLite (`tool_policies`, `server_trust`) and the consent preferences
 * (`consent_prefs`), mirrored in memory: a model-initiated call is checked on every call, so the
 * check must not query the database. Every write commits first, then updates the mirror.
 */
import type Database from 'better-sqlite3';
import type { ToolDefinition } from '../tool-definition/definition';

export type ToolDecision = 'allow' | 'deny' | 'ask';

export interface ToolPolicy {
  serverId: string;
  tool: string;
  decision: ToolDecision;
  /** Set for `allow`: the definition it was given for. */
  pinned?: { hash: string; definition: ToolDefinition };
  createdAt: string;
}

export interface ServerTrust {
  serverId: string;
  /** The tools as they were when the user trusted the server, by name. */
  pinned: Record<string, { hash: string; definition: ToolDefinition }>;
  createdAt: string;
}

interface PolicyRow {
  server_id: string;
  tool_name: string;
  decision: ToolDecision;
  definition_hash: string | null;
  definition_json: string | null;
  created_at: string;
}

const key = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

export class PolicyRepository {
  private readonly tools = new Map<string, ToolPolicy>();
  private readonly servers = new Map<string, ServerTrust>();

  constructor(private readonly db: Database.Database) {
    for (const row of db.prepare<[], PolicyRow>('SELECT * FROM tool_policies').all()) {
      this.tools.set(key(row.server_id, row.tool_name), {
        serverId: row.server_id,
        tool: row.tool_name,
        decision: row.decision,
        ...(row.definition_hash && row.definition_json
          ? { pinned: { hash: row.definition_hash, definition: JSON.parse(row.definition_json) as ToolDefinition } }
          : {}),
        createdAt: row.created_at,
      });
    }
    for (const row of db.prepare<[], { server_id: string; definitions: string; created_at: string }>('SELECT * FROM server_trust').all()) {
      this.servers.set(row.server_id, { serverId: row.server_id, pinned: JSON.parse(row.definitions), createdAt: row.created_at });
    }
  }

  toolPolicy(serverId: string, tool: string): ToolPolicy | undefined {
    return this.tools.get(key(serverId, tool));
  }

  serverTrust(serverId: string): ServerTrust | undefined {
    return this.servers.get(serverId);
  }

  allToolPolicies(): ToolPolicy[] {
    return [...this.tools.values()];
  }

  allServerTrust(): ServerTrust[] {
    return [...this.servers.values()];
  }

  setToolPolicy(policy: ToolPolicy): void {
    this.db
      .prepare(
        `INSERT INTO tool_policies (server_id, tool_name, decision, definition_hash, definition_json, created_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (server_id, tool_name) DO UPDATE SET decision = excluded.decision, definition_hash = excluded.definition_hash,
           definition_json = excluded.definition_json, created_at = excluded.created_at`,
      )
      .run(
        policy.serverId,
        policy.tool,
        policy.decision,
        policy.pinned?.hash ?? null,
        policy.pinned ? JSON.stringify(policy.pinned.definition) : null,
        policy.createdAt,
      );
    this.tools.set(key(policy.serverId, policy.tool), policy);
  }

  deleteToolPolicy(serverId: string, tool: string): boolean {
    const changes = this.db.prepare('DELETE FROM tool_policies WHERE server_id = ? AND tool_name = ?').run(serverId, tool).changes;
    this.tools.delete(key(serverId, tool));
    return changes > 0;
  }

  setServerTrust(trust: ServerTrust): void {
    this.db
      .prepare(
        'INSERT INTO server_trust (server_id, definitions, created_at) VALUES (?, ?, ?) ON CONFLICT (server_id) DO UPDATE SET definitions = excluded.definitions, created_at = excluded.created_at',
      )
      .run(trust.serverId, JSON.stringify(trust.pinned), trust.createdAt);
    this.servers.set(trust.serverId, trust);
  }

  deleteServerTrust(serverId: string): boolean {
    const changes = this.db.prepare('DELETE FROM server_trust WHERE server_id = ?').run(serverId).changes;
    this.servers.delete(serverId);
    return changes > 0;
  }

  /** The server is gone (its rows went with it through ON DELETE CASCADE): forget the mirror too. */
  forgetServer(serverId: string): void {
    this.db.prepare('DELETE FROM tool_policies WHERE server_id = ?').run(serverId);
    this.db.prepare('DELETE FROM server_trust WHERE server_id = ?').run(serverId);
    for (const [k, policy] of this.tools) if (policy.serverId === serverId) this.tools.delete(k);
    this.servers.delete(serverId);
  }

  readPref<T>(name: string, fallback: T): T {
    const row = this.db.prepare<[string], { value: string }>('SELECT value FROM consent_prefs WHERE key = ?').get(name);
    return row ? (JSON.parse(row.value) as T) : fallback;
  }

  writePref(name: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO consent_prefs (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(name, JSON.stringify(value));
  }
}
