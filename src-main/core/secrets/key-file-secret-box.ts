import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { foreignSchemeError, SCHEME_KEY_FILE, type SecretBox } from './secret-box';

const KEY_FILE = 'secrets.key';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random key kept in `secrets.key` (mode 0600) in the data directory. This keeps
 * secrets out of the database file (a copied or synced database reveals nothing), but anyone who can
 * read the whole data directory can read them: docs/security.md says so.
 */
export class KeyFileSecretBox implements SecretBox {
  readonly scheme = SCHEME_KEY_FILE;
  readonly description = 'the key file in the data directory';
  private readonly key: Buffer;

  constructor(dataDir: string) {
    this.key = loadOrCreateKey(path.join(dataDir, KEY_FILE));
  }

  async seal(plain: string): Promise<Buffer> {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([SCHEME_KEY_FILE]), iv, cipher.getAuthTag(), body]);
  }

  async open(sealed: Buffer): Promise<string> {
    if (sealed[0] !== SCHEME_KEY_FILE) throw foreignSchemeError(sealed, this);
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('A stored secret could not be decrypted (was secrets.key replaced?): enter it again.');
    }
  }
}

function loadOrCreateKey(file: string): Buffer {
  try {
    const key = fs.readFileSync(file);
    if (key.length === 32) return key;
  } catch {
    // Missing: create below.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = crypto.randomBytes(32);
  // 'wx' never overwrites a key another process created meanwhile; re-read in that case.
  try {
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return fs.readFileSync(file);
  }
}
