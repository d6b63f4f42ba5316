import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import { RelaxedWriter } from '../store/relaxed-write';
import { CLIENT_AUTH_KINDS, NO_SANDBOX, SandboxPolicySchema } from '@contract';
import type {
  ClientAuthKind,
  EnvVarView,
  PresetId,
  SandboxPolicy,
  ServerConfigView,
  ServerInputParsed,
  ServerTransportKind,
  SignInMode,
} from '@contract';

/** One environment variable (or static header) as stored: a plain value, or a sealed secret. */
export type StoredEnvVar = { key: string; value: string; sealed?: undefined } | { key: string; value?: undefined; sealed: Buffer };

/** A server row with its environment, as the core (never the renderer) sees it. */
export interface StoredServer {
  id: string;
  name: string;
  transport: ServerTransportKind;
  command: string;
  args: string[];
  env: StoredEnvVar[];
  cwd: string;
  url: string;
  headers: StoredEnvVar[];
  oauthClientId: string;
  /** Sealed. */
  oauthClientSecret?: Buffer;
  signInMode: SignInMode;
  oauthClientAuth: ClientAuthKind;
  /** Sealed PEM. */
  oauthPrivateKey?: Buffer;
  /** Not a secret: the workload's token it prints is read at each sign-in and never stored. */
  oauthAssertionCommand: string;
  oauthIssuer: string;
  idpIssuer: string;
  idpTokenEndpoint: string;
  idpClientId: string;
  /** Sealed. */
  idpClientSecret?: Buffer;
  idpIdTokenCommand: string;
  enabled: boolean;
  initTimeoutMs: number;
  requestTimeoutMs: number;
  autoRestart: boolean;
  sandbox: SandboxPolicy;
  preset?: PresetId;
  /** The installed bundle it runs (`bundles/<id>/`). */
  bundleId?: string;
  /** JSON of the SDK's era verdict from the last successful start. */
  eraVerdict?: string;
  createdAt: string;
}

interface ServerRow {
  id: string;
  name: string;
  transport: string;
  url: string;
  oauth_client_id: string;
  oauth_client_secret: Buffer | null;
  sign_in_mode: string;
  oauth_client_auth: string;
  oauth_private_key: Buffer | null;
  oauth_assertion_command: string;
  oauth_issuer: string;
  idp_issuer: string;
  idp_token_endpoint: string;
  idp_client_id: string;
  idp_client_secret: Buffer | null;
  idp_id_token_command: string;
  command: string;
  args: string;
  cwd: string;
  enabled: number;
  init_timeout_ms: number;
  request_timeout_ms: number;
  auto_restart: number;
  preset: string | null;
  bundle_id: string | null;
  sandbox: string | null;
  era_verdict: string | null;
  created_at: string;
}

interface EnvRow {
  server_id: string;
  key: string;
  value: string | null;
  secret_blob: Buffer | null;
}

export type ServerFields = Omit<
  ServerInputParsed,
  'env' | 'headers' | 'oauthClientSecret' | 'oauthPrivateKey' | 'idpClientSecret' | 'sandbox'
> & {
  /** Always decided by the time it is stored (a new server's default, an edited one's own). */
  sandbox: SandboxPolicy;
  env: StoredEnvVar[];
  headers: StoredEnvVar[];
  /** Sealed. */
  oauthClientSecret?: Buffer;
  /** Sealed. */
  oauthPrivateKey?: Buffer;
  /** Sealed. */
  idpClientSecret?: Buffer;
  preset?: PresetId;
  bundleId?: string;
};

/** The two tables of key/value pairs per server; same shape, so one reader and writer serves both. */
type PairTable = 'server_env' | 'server_headers';

/**
 * Server configurations in SQLite. Every write is one transaction, so a server is never saved
 * half-way (a config without its environment, say).
 *
 * Reads are served from memory after the first: every state change of every server looks its config
 * up (to publish its view, to name it in a log line), 50 servers starting make hundreds of lookups,
 * and each was three queries. This class is the only writer of these tables; each write forgets
 * what it changed. Callers must treat what they get as read-only (it is shared).
 */
export class ServerConfigRepository {
  private readonly relaxed: RelaxedWriter;
  private readonly saveVerdict: Database.Statement<[string, string]>;
  private readonly selectOne: Database.Statement<[string], ServerRow>;
  private readonly selectPairs: Record<PairTable, Database.Statement<[string], EnvRow>>;
  /** Configs read so far, by id; `all` is the whole list in order, once read. */
  private readonly byId = new Map<string, StoredServer>();
  private all: StoredServer[] | undefined;

  constructor(private readonly db: Database.Database) {
    this.relaxed = new RelaxedWriter(db);
    this.saveVerdict = db.prepare('UPDATE servers SET era_verdict = ? WHERE id = ?');
    this.selectOne = db.prepare<[string], ServerRow>('SELECT * FROM servers WHERE id = ?');
    const pairs = (table: PairTable) =>
      db.prepare<[string], EnvRow>(`SELECT server_id, key, value, secret_blob FROM ${table} WHERE server_id = ? ORDER BY position`);
    this.selectPairs = { server_env: pairs('server_env'), server_headers: pairs('server_headers') };
  }

  list(): StoredServer[] {
    if (!this.all) {
      const rows = this.db.prepare<[], ServerRow>('SELECT * FROM servers ORDER BY position, created_at').all();
      const env = this.pairsByServer('server_env');
      const headers = this.pairsByServer('server_headers');
      const all = rows.map((row) => toStored(row, env.get(row.id) ?? [], headers.get(row.id) ?? []));
      // Inside someone's transaction the rows may yet be rolled back: not kept.
      if (this.db.inTransaction) return all;
      this.all = all;
      this.byId.clear();
      for (const server of all) this.byId.set(server.id, server);
    }
    return [...this.all];
  }

  get(id: string): StoredServer | undefined {
    const cached = this.byId.get(id);
    if (cached) return cached;
    const row = this.selectOne.get(id);
    if (!row) return undefined;
    const pairs = (table: PairTable) => this.selectPairs[table].all(id).map(toStoredEnv);
    const server = toStored(row, pairs('server_env'), pairs('server_headers'));
    // Inside someone's transaction the row may yet be rolled back: not kept.
    if (!this.db.inTransaction) this.byId.set(id, server);
    return server;
  }

  /** A write changes this server: it (and the list) is read again next time. */
  private changed(id: string): void {
    this.byId.delete(id);
    this.all = undefined;
  }

  /** True when another server already uses this name (case-insensitive). */
  nameTaken(name: string, exceptId?: string): boolean {
    const row = this.db.prepare<[string], { id: string }>('SELECT id FROM servers WHERE name_key = ?').get(name.trim().toLowerCase());
    return row !== undefined && row.id !== exceptId;
  }

  insert(fields: ServerFields, now: Date): StoredServer {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    this.db.transaction(() => {
      const position = (this.db.prepare<[], { next: number }>('SELECT COALESCE(MAX(position), 0) + 1 AS next FROM servers').get()?.next ??
        1) as number;
      this.db
        .prepare(
          `INSERT INTO servers (id, name, name_key, transport, command, args, cwd, url, oauth_client_id, oauth_client_secret,
             sign_in_mode, oauth_client_auth, oauth_private_key, oauth_assertion_command, oauth_issuer, idp_issuer, idp_token_endpoint, idp_client_id,
             idp_client_secret, idp_id_token_command, enabled, init_timeout_ms, request_timeout_ms, auto_restart, preset, bundle_id,
             sandbox, position, created_at, updated_at)
           VALUES (@id, @name, @nameKey, @transport, @command, @args, @cwd, @url, @oauthClientId, @oauthClientSecret,
             @signInMode, @oauthClientAuth, @oauthPrivateKey, @oauthAssertionCommand, @oauthIssuer, @idpIssuer, @idpTokenEndpoint, @idpClientId,
             @idpClientSecret, @idpIdTokenCommand, @enabled, @init, @request, @autoRestart, @preset, @bundleId, @sandbox, @position, @at, @at)`,
        )
        .run({ ...columns(fields), id, position, at });
      this.writePairs('server_env', id, fields.env);
      this.writePairs('server_headers', id, fields.headers);
    })();
    this.changed(id);
    return this.get(id)!;
  }

  update(id: string, fields: ServerFields, now: Date): StoredServer {
    this.db.transaction(() => {
      const result = this.db
        .prepare(
          `UPDATE servers SET name = @name, name_key = @nameKey, transport = @transport, command = @command, args = @args,
             cwd = @cwd, url = @url, oauth_client_id = @oauthClientId, oauth_client_secret = @oauthClientSecret,
             sign_in_mode = @signInMode, oauth_client_auth = @oauthClientAuth, oauth_private_key = @oauthPrivateKey,
             oauth_assertion_command = @oauthAssertionCommand,
             oauth_issuer = @oauthIssuer, idp_issuer = @idpIssuer, idp_token_endpoint = @idpTokenEndpoint, idp_client_id = @idpClientId, idp_client_secret = @idpClientSecret,
             idp_id_token_command = @idpIdTokenCommand, enabled = @enabled, init_timeout_ms = @init, request_timeout_ms = @request,
             auto_restart = @autoRestart, sandbox = @sandbox, updated_at = @at WHERE id = @id`,
        )
        .run({ ...columns(fields), id, at: now.toISOString() });
      if (result.changes === 0) throw new Error(`No server with id ${id}`);
      for (const table of ['server_env', 'server_headers'] as const) this.db.prepare(`DELETE FROM ${table} WHERE server_id = ?`).run(id);
      this.writePairs('server_env', id, fields.env);
      this.writePairs('server_headers', id, fields.headers);
    })();
    this.changed(id);
    return this.get(id)!;
  }

  setEnabled(id: string, enabled: boolean, now: Date): void {
    this.changed(id);
    this.db.prepare('UPDATE servers SET enabled = ?, updated_at = ? WHERE id = ?').run(enabled ? 1 : 0, now.toISOString(), id);
  }

  /**
   * Every server's start ends here: relaxed (see store/relaxed-write.ts), no fsync per server on the
   * main thread. The verdict is a cache: one lost to a power cut only costs the next start a probe.
   */
  saveEraVerdict(id: string, verdict: string): void {
    const cached = this.byId.get(id);
    // A server started before usually finds the verdict it had: nothing to write.
    if (cached?.eraVerdict === verdict) return;
    this.relaxed.run(() => this.saveVerdict.run(verdict, id));
    // Only the verdict changed, so the cached config takes it: the list is not read again (when fifty
    // servers became ready, all fifty configs were read back fifty times).
    if (!cached || this.db.inTransaction) {
      this.changed(id);
      return;
    }
    const server = { ...cached, eraVerdict: verdict };
    this.byId.set(id, server);
    if (this.all) this.all = this.all.map((other) => (other.id === id ? server : other));
  }

  remove(id: string): void {
    this.changed(id);
    this.db.prepare('DELETE FROM servers WHERE id = ?').run(id);
  }

  private pairsByServer(table: PairTable): Map<string, StoredEnvVar[]> {
    const rows = this.db.prepare<[], EnvRow>(`SELECT server_id, key, value, secret_blob FROM ${table} ORDER BY server_id, position`).all();
    const byServer = new Map<string, StoredEnvVar[]>();
    for (const row of rows) {
      const list = byServer.get(row.server_id) ?? [];
      list.push(toStoredEnv(row));
      byServer.set(row.server_id, list);
    }
    return byServer;
  }

  private writePairs(table: PairTable, id: string, pairs: StoredEnvVar[]): void {
    const insert = this.db.prepare(`INSERT INTO ${table} (server_id, position, key, value, secret_blob) VALUES (?, ?, ?, ?, ?)`);
    pairs.forEach((pair, position) => insert.run(id, position, pair.key, pair.sealed ? null : pair.value, pair.sealed ?? null));
  }
}

function columns(fields: ServerFields) {
  return {
    name: fields.name,
    nameKey: fields.name.trim().toLowerCase(),
    transport: fields.transport,
    url: fields.url,
    oauthClientId: fields.oauthClientId,
    oauthClientSecret: fields.oauthClientSecret ?? null,
    signInMode: fields.signInMode,
    oauthClientAuth: fields.oauthClientAuth,
    oauthPrivateKey: fields.oauthPrivateKey ?? null,
    oauthAssertionCommand: fields.oauthAssertionCommand,
    oauthIssuer: fields.oauthIssuer,
    idpIssuer: fields.idpIssuer,
    idpTokenEndpoint: fields.idpTokenEndpoint,
    idpClientId: fields.idpClientId,
    idpClientSecret: fields.idpClientSecret ?? null,
    idpIdTokenCommand: fields.idpIdTokenCommand,
    command: fields.command,
    args: JSON.stringify(fields.args),
    cwd: fields.cwd,
    enabled: fields.enabled ? 1 : 0,
    init: fields.initTimeoutMs,
    request: fields.requestTimeoutMs,
    autoRestart: fields.autoRestart ? 1 : 0,
    preset: fields.preset ?? null,
    bundleId: fields.bundleId ?? null,
    sandbox: fields.transport === 'stdio' && fields.sandbox.enabled ? JSON.stringify(fields.sandbox) : null,
  };
}

/** The stored policy; anything unreadable is no sandbox (and the form shows it off, not a pretence). */
function parseSandbox(json: string | null): SandboxPolicy {
  if (!json) return NO_SANDBOX;
  try {
    const parsed = SandboxPolicySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : NO_SANDBOX;
  } catch {
    return NO_SANDBOX;
  }
}

function toStoredEnv(row: EnvRow): StoredEnvVar {
  return row.secret_blob ? { key: row.key, sealed: row.secret_blob } : { key: row.key, value: row.value ?? '' };
}

function toStored(row: ServerRow, env: StoredEnvVar[], headers: StoredEnvVar[]): StoredServer {
  return {
    id: row.id,
    name: row.name,
    transport: row.transport === 'http' ? 'http' : 'stdio',
    command: row.command,
    args: JSON.parse(row.args) as string[],
    env,
    cwd: row.cwd,
    url: row.url,
    headers,
    oauthClientId: row.oauth_client_id,
    ...(row.oauth_client_secret ? { oauthClientSecret: row.oauth_client_secret } : {}),
    signInMode: (['application', 'organization'] as const).find((mode) => mode === row.sign_in_mode) ?? 'browser',
    oauthClientAuth: CLIENT_AUTH_KINDS.find((kind) => kind === row.oauth_client_auth) ?? 'client_secret',
    ...(row.oauth_private_key ? { oauthPrivateKey: row.oauth_private_key } : {}),
    oauthAssertionCommand: row.oauth_assertion_command,
    oauthIssuer: row.oauth_issuer,
    idpIssuer: row.idp_issuer,
    idpTokenEndpoint: row.idp_token_endpoint,
    idpClientId: row.idp_client_id,
    ...(row.idp_client_secret ? { idpClientSecret: row.idp_client_secret } : {}),
    idpIdTokenCommand: row.idp_id_token_command,
    enabled: row.enabled === 1,
    initTimeoutMs: row.init_timeout_ms,
    requestTimeoutMs: row.request_timeout_ms,
    autoRestart: row.auto_restart === 1,
    sandbox: parseSandbox(row.sandbox),
    ...(row.preset ? { preset: row.preset as PresetId } : {}),
    ...(row.bundle_id ? { bundleId: row.bundle_id } : {}),
    ...(row.era_verdict ? { eraVerdict: row.era_verdict } : {}),
    createdAt: row.created_at,
  };
}

/** What the renderer may see of a stored server: secrets are named, never shown. */
export function toConfigView(server: StoredServer): ServerConfigView {
  const { env, headers, eraVerdict: _eraVerdict, oauthClientSecret, oauthPrivateKey, idpClientSecret, ...rest } = server;
  return {
    ...rest,
    env: env.map(pairView),
    headers: headers.map(pairView),
    oauthClientSecretSet: oauthClientSecret !== undefined,
    oauthPrivateKeySet: oauthPrivateKey !== undefined,
    idpClientSecretSet: idpClientSecret !== undefined,
  };
}

function pairView(pair: StoredEnvVar): EnvVarView {
  return pair.sealed ? { key: pair.key, secret: true } : { key: pair.key, secret: false, value: pair.value };
}
