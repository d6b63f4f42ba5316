/**
 * Seals secret values (environment variables marked secret, later API keys and tokens) before they
 * reach SQLite, so the database never holds them in plaintext. The Electron app seals with the OS
 * keychain (safeStorage); web mode and tests with a key file in the data directory.
 *
 * A sealed blob starts with one byte naming its scheme, so a blob sealed by one can be recognised
 * (and explained) by the other: the app and web mode share a data directory.
 */
export interface SecretBox {
  /** The scheme byte this box writes. */
  readonly scheme: number;
  /** Human description, shown in the UI ("the system keychain"…). */
  readonly description: string;
  seal(plain: string): Promise<Buffer>;
  /** Opens a blob; rejects with a message a user can act on when it cannot. */
  open(sealed: Buffer): Promise<string>;
}

export const SCHEME_KEY_FILE = 1;
export const SCHEME_SAFE_STORAGE = 2;

export const SCHEME_NAMES: Record<number, string> = {
  [SCHEME_KEY_FILE]: 'the key file in the data directory (web mode)',
  [SCHEME_SAFE_STORAGE]: 'the system keychain (desktop app)',
};

/** The error for a blob written by another scheme than the box asked to open it. */
export function foreignSchemeError(sealed: Buffer, box: SecretBox): Error {
  const by = SCHEME_NAMES[sealed[0]] ?? `an unknown scheme (${sealed[0]})`;
  return new Error(`This secret was stored with ${by} and cannot be read with ${box.description}: enter it again.`);
}
