/**
 * Providers' API keys: sealed by the host's SecretBox into the provider's row (never plaintext in
 * SQLite), or, in web mode, taken from the environment variable the provider's type names
 * (`ANTHROPIC_API_KEY`; `OPENAI_API_KEY` for OpenAI's own API only). A key the user entered wins over
 * the environment. Keys never leave the host: everything outside the providers gets an `ApiKeyStatus`.
 */
import type { ApiKeyStatus, HostMode } from '@contract';
import type { SecretBox } from '../secrets/secret-box';
import type { ProviderRepository, StoredProvider } from './provider-repository';

export interface ProviderKeysOptions {
  repo: ProviderRepository;
  secrets: SecretBox;
  mode: HostMode;
  /** The host's environment (web mode reads keys from it). */
  env?: Record<string, string | undefined>;
  now?: () => Date;
}

export class ProviderKeys {
  /** Opened keys by provider, cached so a request does not unseal every time. */
  private readonly opened = new Map<string, { sealed: Buffer; key: string }>();
  /** Stored keys that could not be opened, by provider. */
  private readonly problems = new Map<string, string>();

  constructor(private readonly options: ProviderKeysOptions) {}

  /** The key from the environment (web mode only: the desktop app is not started from a shell). */
  private envKey(envName: string | undefined): string | undefined {
    if (this.options.mode !== 'web' || !envName) return undefined;
    const value = this.options.env?.[envName]?.trim();
    return value ? value : undefined;
  }

  /** The key to use now, or undefined. Never throws: a stored key that cannot be opened is reported in `status()`. */
  async resolve(id: string, envName?: string): Promise<string | undefined> {
    const sealed = this.options.repo.get(id)?.sealedKey;
    if (sealed) {
      const cached = this.opened.get(id);
      if (cached && cached.sealed.equals(sealed)) return cached.key;
      try {
        const key = await this.options.secrets.open(sealed);
        this.opened.set(id, { sealed, key });
        this.problems.delete(id);
        return key;
      } catch (error) {
        this.problems.set(id, (error as Error).message);
      }
    }
    return this.envKey(envName);
  }

  /** Seals a key for storing (the caller writes it with the rest of the change). */
  seal(apiKey: string): Promise<Buffer> {
    return this.options.secrets.seal(apiKey);
  }

  /** Seals and stores the key of a provider (replacing any stored one). */
  async set(id: string, apiKey: string): Promise<void> {
    const sealed = await this.seal(apiKey);
    this.options.repo.setKey(id, sealed, this.options.now?.() ?? new Date());
    this.opened.set(id, { sealed, key: apiKey });
    this.problems.delete(id);
  }

  /** Forgets the stored key (an environment key, if any, applies again). */
  clear(id: string): void {
    this.options.repo.setKey(id, null, this.options.now?.() ?? new Date());
    this.forget(id);
  }

  /** Drops what is cached about a provider (it was removed). */
  forget(id: string): void {
    this.opened.delete(id);
    this.problems.delete(id);
  }

  /** Whether a key is there and where it comes from; what the renderer may know. */
  status(provider: StoredProvider, envName?: string): ApiKeyStatus {
    const storage = this.storageDescription();
    const problem = this.problems.get(provider.id);
    if (provider.sealedKey && problem === undefined) return { state: 'set', source: 'stored', storage };
    const fromEnv = this.envKey(envName) !== undefined;
    return {
      state: fromEnv ? 'set' : 'not-set',
      ...(fromEnv ? { source: 'environment' as const } : {}),
      storage,
      ...(provider.sealedKey && problem ? { problem } : {}),
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
}
