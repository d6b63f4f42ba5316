/**
 * The `llm_providers` table (migration 013): one row per provider, its key sealed, its last model
 * list cached. Values a hand-edited database made unreadable fall back to harmless defaults.
 */
import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import { PROVIDER_TYPES, type ModelInfo, type ProviderType } from '@contract';

export interface StoredProvider {
  id: string;
  type: ProviderType;
  name: string;
  baseUrl: string;
  sealedKey: Buffer | null;
  models: ModelInfo[];
  modelsFetchedAt: string | undefined;
  modelsNote: string | undefined;
  /** Models that refused tools. */
  noToolModels: string[];
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  type: string;
  name: string;
  base_url: string;
  api_key_sealed: Buffer | null;
  models: string | null;
  models_fetched_at: string | null;
  models_note: string | null;
  no_tool_models: string | null;
  created_at: string;
  updated_at: string;
}

function parseArray<T>(text: string | null, keep: (item: unknown) => item is T): T[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(keep) : [];
  } catch {
    return [];
  }
}

const isModel = (m: unknown): m is ModelInfo =>
  typeof m === 'object' && m !== null && typeof (m as ModelInfo).id === 'string' && typeof (m as ModelInfo).displayName === 'string';
const isString = (s: unknown): s is string => typeof s === 'string';

function fromRow(row: Row): StoredProvider | undefined {
  // A type this build does not know (written by a newer Patchbay) is skipped, not fatal.
  if (!(PROVIDER_TYPES as readonly string[]).includes(row.type)) return undefined;
  return {
    id: row.id,
    type: row.type as ProviderType,
    name: row.name,
    baseUrl: row.base_url,
    sealedKey: row.api_key_sealed,
    models: parseArray(row.models, isModel),
    modelsFetchedAt: row.models_fetched_at ?? undefined,
    modelsNote: row.models_note ?? undefined,
    noToolModels: parseArray(row.no_tool_models, isString),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewProvider {
  type: ProviderType;
  name: string;
  baseUrl: string;
  sealedKey: Buffer | null;
}

export class ProviderRepository {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      list: db.prepare<[], Row>('SELECT * FROM llm_providers ORDER BY position, created_at'),
      get: db.prepare<[string], Row>('SELECT * FROM llm_providers WHERE id = ?'),
      insert: db.prepare<[string, string, string, string, Buffer | null, string, string]>(
        `INSERT INTO llm_providers (id, type, name, base_url, api_key_sealed, position, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM llm_providers), ?, ?)`,
      ),
      update: db.prepare<[string, string, string, string]>('UPDATE llm_providers SET name = ?, base_url = ?, updated_at = ? WHERE id = ?'),
      key: db.prepare<[Buffer | null, string, string]>('UPDATE llm_providers SET api_key_sealed = ?, updated_at = ? WHERE id = ?'),
      models: db.prepare<[string, string, string | null, string]>(
        'UPDATE llm_providers SET models = ?, models_fetched_at = ?, models_note = ? WHERE id = ?',
      ),
      noTools: db.prepare<[string | null, string]>('UPDATE llm_providers SET no_tool_models = ? WHERE id = ?'),
      remove: db.prepare<[string]>('DELETE FROM llm_providers WHERE id = ?'),
    };
  }

  /** In the order they were added. */
  list(): StoredProvider[] {
    return this.statements.list.all().flatMap((row) => fromRow(row) ?? []);
  }

  get(id: string): StoredProvider | undefined {
    const row = this.statements.get.get(id);
    return row ? fromRow(row) : undefined;
  }

  insert(provider: NewProvider, now: Date): StoredProvider {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    this.statements.insert.run(id, provider.type, provider.name, provider.baseUrl, provider.sealedKey, at, at);
    return this.get(id)!;
  }

  update(id: string, change: { name: string; baseUrl: string }, now: Date): void {
    this.statements.update.run(change.name, change.baseUrl, now.toISOString(), id);
  }

  setKey(id: string, sealed: Buffer | null, now: Date): void {
    this.statements.key.run(sealed, now.toISOString(), id);
  }

  setModels(id: string, models: ModelInfo[], note: string | undefined, now: Date): void {
    this.statements.models.run(JSON.stringify(models), now.toISOString(), note ?? null, id);
  }

  setNoToolModels(id: string, models: string[]): void {
    this.statements.noTools.run(models.length ? JSON.stringify(models) : null, id);
  }

  remove(id: string): boolean {
    return this.statements.remove.run(id).changes > 0;
  }
}
