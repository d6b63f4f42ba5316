import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { KeyFileSecretBox } from '../secrets/key-file-secret-box';
import { SCHEME_SAFE_STORAGE, type SecretBox } from '../secrets/secret-box';
import { DATABASE_FILE, openDatabase } from '../store/database';
import { ApiKeyStore } from './api-key-store';

const KEY = 'sk-ant-api03-THIS-MUST-NEVER-BE-PLAINTEXT';

function store(options: { mode?: 'web' | 'electron'; env?: Record<string, string>; secrets?: (dir: string) => SecretBox } = {}) {
  const dir = tempDir();
  const { db } = openDatabase(dir);
  const keys = new ApiKeyStore({
    db,
    secrets: options.secrets?.(dir) ?? new KeyFileSecretBox(dir),
    mode: options.mode ?? 'web',
    env: options.env ?? {},
  });
  return { dir, db, keys };
}

describe('ApiKeyStore', () => {
  it('seals the key: the database file never holds it in plaintext, and the status never carries it', async () => {
    const { dir, db, keys } = store();
    expect(keys.status()).toMatchObject({ state: 'not-set' });
    const status = await keys.set(KEY);
    expect(status).toMatchObject({ state: 'set', source: 'stored', storage: expect.stringMatching(/secrets\.key.*owner-only/) });
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(await keys.resolve()).toBe(KEY);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith(DATABASE_FILE))) {
      expect(fs.readFileSync(path.join(dir, file)).includes(Buffer.from(KEY))).toBe(false);
    }
    expect(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
  });

  it('survives a restart, and forgets the key when cleared', async () => {
    const { dir, db, keys } = store();
    await keys.set(KEY);
    db.close();
    const again = openDatabase(dir);
    const reopened = new ApiKeyStore({ db: again.db, secrets: new KeyFileSecretBox(dir), mode: 'web', env: {} });
    expect(await reopened.resolve()).toBe(KEY);
    expect(reopened.clear()).toMatchObject({ state: 'not-set' });
    expect(await reopened.resolve()).toBeUndefined();
    again.db.close();
  });

  it('in web mode honours ANTHROPIC_API_KEY from the environment, says so, and an entered key wins', async () => {
    const { keys, db } = store({ env: { ANTHROPIC_API_KEY: 'sk-from-env' } });
    expect(keys.status()).toMatchObject({ state: 'set', source: 'environment' });
    expect(await keys.resolve()).toBe('sk-from-env');
    await keys.set(KEY);
    expect(await keys.resolve()).toBe(KEY);
    expect(keys.clear()).toMatchObject({ state: 'set', source: 'environment' });
    db.close();
    const desktop = store({ mode: 'electron', env: { ANTHROPIC_API_KEY: 'sk-from-env' } });
    expect(desktop.keys.status()).toMatchObject({ state: 'not-set' });
    desktop.db.close();
  });

  it('reports a stored key it cannot open (sealed by the desktop keychain) instead of failing', async () => {
    const { db, keys } = store();
    await keys.set(KEY);
    const cannotOpen: SecretBox = {
      scheme: SCHEME_SAFE_STORAGE,
      description: 'the system keychain',
      seal: async () => Buffer.alloc(0),
      open: async () => {
        throw new Error('This secret was stored with the key file and cannot be read here: enter it again.');
      },
    };
    const other = new ApiKeyStore({ db, secrets: cannotOpen, mode: 'electron' });
    expect(await other.resolve()).toBeUndefined();
    expect(other.status()).toMatchObject({ state: 'not-set', problem: expect.stringMatching(/enter it again/) });
    db.close();
  });
});
