/**
 * The Anthropic API key: sealed by the host's SecretBox into the `host_secrets` table (never
 * plaintext in SQLite), or, in web mode, taken from `ANTHROPIC_API_KEY` in the host's environment.
 * A key the user entered wins over the environment. The key never leaves the host: callers outside
 * the provider only ever get an `ApiKeyStatus`.
 */
import type Database from 'better-sqlite3';
import type { ApiKeyStatus, HostMode } from '../../../src-preload/contract';
import type { SecretBox } from '../secrets/secret-box';

const SECRET_NAME = 'anthropic_api_key';

export interface ApiKeyStoreOptions {
  db: Database.Database;
  secrets: SecretBox;
  mode: HostMode;
  /** The host's environment (web mode reads ANTHROPIC_API_KEY from it). */
  env?: Record<string, string | undefined>;
  now?: () => Date;
}

export class ApiKeyStore {
  private readonly select: Database.Statement<[string], { sealed: Buffer }>;
  private readonly upsert: Database.Statement<[string, Buffer, string]>;
  private readonly remove: Database.Statement<[string]>;
  /** The opened stored key, cached so a request does not unseal it every time. */
  private opened: { sealed: Buffer; key: string } | undefined;
  private problem: string | undefined;

  constructor(private readonly options: ApiKeyStoreOptions) {
    const { db } = options;
    this.select = db.prepare('SELECT sealed FROM host_secrets WHERE name = ?');
    this.upsert = db.prepare(
      'INSERT INTO host_secrets (name, sealed, updated_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at',
    );
    this.remove = db.prepare('DELETE FROM host_secrets WHERE name = ?');
  }

  /** The key from the environment (web mode only: the desktop app is not started from a shell). */
  private envKey(): string | undefined {
    if (this.options.mode !== 'web') return undefined;
    const value = this.options.env?.ANTHROPIC_API_KEY?.trim();
    return value ? value : undefined;
  }

  /** The key to use now, or undefined. Never throws: a stored key that cannot be opened is reported in `status()`. */
  async resolve(): Promise<string | undefined> {
    const row = this.select.get(SECRET_NAME);
    if (row) {
      if (this.opened && this.opened.sealed.equals(row.sealed)) return this.opened.key;
      try {
        const key = await this.options.secrets.open(row.sealed);
        this.opened = { sealed: row.sealed, key };
        this.problem = undefined;
        return key;
      } catch (error) {
        this.problem = (error as Error).message;
      }
    }
    return this.envKey();
  }

  /** Seals and stores the key (replacing any stored one). */
  async set(apiKey: string): Promise<ApiKeyStatus> {
    const sealed = await this.options.secrets.seal(apiKey);
    this.upsert.run(SECRET_NAME, sealed, (this.options.now?.() ?? new Date()).toISOString());
    this.opened = { sealed, key: apiKey };
    this.problem = undefined;
    return this.status();
  }

  /** Forgets the stored key (an environment key, if any, applies again). */
  clear(): ApiKeyStatus {
    this.remove.run(SECRET_NAME);
    this.opened = undefined;
    this.problem = undefined;
    return this.status();
  }

  /** Whether a key is there and where it comes from; what the renderer may know. */
  status(): ApiKeyStatus {
    const stored = this.select.get(SECRET_NAME) !== undefined;
    const storage = this.storageDescription();
    const usable = stored && this.problem === undefined;
    if (usable) return { state: 'set', source: 'stored', storage };
    const fromEnv = this.envKey() !== undefined;
    return {
      state: fromEnv ? 'set' : 'not-set',
      ...(fromEnv ? { source: 'environment' as const } : {}),
      storage,
      ...(stored && this.problem ? { problem: this.problem } : {}),
    };
  }

  /** Where an entered key is kept, said plainly (who can read it). */
  private storageDescription(): string {
    if (this.options.mode === 'electron' && this.options.secrets.description === 'the system keychain') {
      return "Encrypted with your system keychain (Electron safeStorage) and kept in Patchbay's database.";
    }
    return (
      "Encrypted in Patchbay's database with a key kept in secrets.key in the data directory (owner-only permissions): " +
      'anyone who can read your data directory can read the API key.'
    );
  }

  /** Opens the stored key once at start so `status()` can report a key that cannot be opened. */
  async check(): Promise<void> {
    await this.resolve();
  }
}
