/**
 * OAuth credentials in SQLite (migration 008), every value sealed with the host's `SecretBox`:
 * client registrations keyed by issuer (one registration per authorization server, shared by every
 * server that uses it), tokens keyed by server and issuer. Only the keys and timestamps are plaintext.
 */
import type Database from 'better-sqlite3';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { SecretBox } from '../secrets/secret-box';
import type { StoredDpopKey } from './dpop-key';

/** A token set as Patchbay keeps it: the token response, when it arrived, and what it is for. */
export interface TokenRecord {
  tokens: StoredOAuthTokens;
  /** ISO time the tokens were obtained; with `expires_in`, when they expire. */
  obtainedAt: string;
  /** The MCP server URL the tokens were obtained for: they are never sent to another URL. */
  serverUrl: string;
  /** Who signed in, as far as the tokens say (display only). */
  account?: string;
  /** Obtained the 2025-03-26 way (the server has no protected-resource metadata). */
  legacy?: boolean;
  /** Obtained without a browser: as an application, or through the organisation's identity provider. */
  mode?: 'application' | 'organization';
  /** The DPoP key pair the tokens are bound to (`token_type: DPoP`), sealed with them. */
  dpopKey?: StoredDpopKey;
}

/** A token record with the issuer it is stored under. */
export interface IssuedTokenRecord extends TokenRecord {
  issuer: string;
}

export interface OAuthCredentialStoreOptions {
  db: Database.Database;
  secrets: SecretBox;
  now: () => Date;
}

export class OAuthCredentialStore {
  private readonly db: Database.Database;
  private readonly secrets: SecretBox;
  private readonly now: () => Date;

  constructor(options: OAuthCredentialStoreOptions) {
    this.db = options.db;
    this.secrets = options.secrets;
    this.now = options.now;
  }

  async saveClient(issuer: string, client: StoredOAuthClientInformation): Promise<void> {
    const sealed = await this.secrets.seal(JSON.stringify(client));
    this.db
      .prepare(
        'INSERT INTO oauth_clients (issuer, sealed, updated_at) VALUES (?, ?, ?) ON CONFLICT (issuer) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at',
      )
      .run(issuer, sealed, this.now().toISOString());
  }

  async client(issuer: string): Promise<StoredOAuthClientInformation | undefined> {
    const row = this.db.prepare('SELECT sealed FROM oauth_clients WHERE issuer = ?').get(issuer) as { sealed: Buffer } | undefined;
    return row ? this.open<StoredOAuthClientInformation>(row.sealed) : undefined;
  }

  forgetClient(issuer: string): void {
    this.db.prepare('DELETE FROM oauth_clients WHERE issuer = ?').run(issuer);
  }

  /** Every stored registration, most recently saved first (to find a redirect port worth reusing). */
  async clients(): Promise<Array<{ issuer: string; client: StoredOAuthClientInformation }>> {
    const rows = this.db.prepare('SELECT issuer, sealed FROM oauth_clients ORDER BY updated_at DESC, rowid DESC').all() as Array<{
      issuer: string;
      sealed: Buffer;
    }>;
    const opened = await Promise.all(
      rows.map(async (row) => ({ issuer: row.issuer, client: await this.open<StoredOAuthClientInformation>(row.sealed) })),
    );
    return opened.filter((entry): entry is { issuer: string; client: StoredOAuthClientInformation } => entry.client !== undefined);
  }

  async saveTokens(serverId: string, issuer: string, record: TokenRecord): Promise<void> {
    const sealed = await this.secrets.seal(JSON.stringify(record));
    // REPLACE gives the row a new rowid, which orders equal timestamps by save order.
    this.db
      .prepare('INSERT OR REPLACE INTO oauth_tokens (server_id, issuer, sealed, updated_at) VALUES (?, ?, ?, ?)')
      .run(serverId, issuer, sealed, this.now().toISOString());
  }

  async tokens(serverId: string, issuer: string): Promise<TokenRecord | undefined> {
    const row = this.db.prepare('SELECT sealed FROM oauth_tokens WHERE server_id = ? AND issuer = ?').get(serverId, issuer) as
      { sealed: Buffer } | undefined;
    return row ? this.open<TokenRecord>(row.sealed) : undefined;
  }

  /** The most recently saved token set of a server, whatever its issuer. */
  async latestTokens(serverId: string): Promise<IssuedTokenRecord | undefined> {
    const row = this.db
      .prepare('SELECT issuer, sealed FROM oauth_tokens WHERE server_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT 1')
      .get(serverId) as { issuer: string; sealed: Buffer } | undefined;
    const record = row ? await this.open<TokenRecord>(row.sealed) : undefined;
    return record && row ? { ...record, issuer: row.issuer } : undefined;
  }

  /** Forgets a server's tokens (of one issuer, or all). Client registrations stay. */
  forgetTokens(serverId: string, issuer?: string): void {
    if (issuer === undefined) this.db.prepare('DELETE FROM oauth_tokens WHERE server_id = ?').run(serverId);
    else this.db.prepare('DELETE FROM oauth_tokens WHERE server_id = ? AND issuer = ?').run(serverId, issuer);
  }

  /** Ids of the servers that have tokens stored (no unsealing). */
  serversWithTokens(): string[] {
    return (this.db.prepare('SELECT DISTINCT server_id FROM oauth_tokens').all() as Array<{ server_id: string }>).map(
      (row) => row.server_id,
    );
  }

  /**
   * Opens a sealed value. One that cannot be opened (sealed by the desktop app's keychain and read in
   * web mode, or a replaced key file) counts as absent: the user signs in again, nothing else breaks.
   */
  private async open<T>(sealed: Buffer): Promise<T | undefined> {
    try {
      return JSON.parse(await this.secrets.open(sealed)) as T;
    } catch {
      return undefined;
    }
  }
}
