import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRIMARY_PROVIDER_ID } from '@contract';
import { tempDir } from '../../test-support/temp-dir';
import { KeyFileSecretBox } from '../secrets/key-file-secret-box';
import { SCHEME_SAFE_STORAGE, type SecretBox } from '../secrets/secret-box';
import { DATABASE_FILE, openDatabase } from '../store/database';
import { ProviderKeys } from './provider-keys';
import { ProviderRepository } from './provider-repository';

const KEY = 'sk-ant-api03-THIS-MUST-NEVER-BE-PLAINTEXT';

function store(options: { mode?: 'web' | 'electron'; env?: Record<string, string>; secrets?: (dir: string) => SecretBox } = {}) {
  const dir = tempDir();
  const { db } = openDatabase(dir);
  const repo = new ProviderRepository(db);
  const keys = new ProviderKeys({
    repo,
    secrets: options.secrets?.(dir) ?? new KeyFileSecretBox(dir),
    mode: options.mode ?? 'web',
    env: options.env ?? {},
  });
  const primary = () => repo.get(PRIMARY_PROVIDER_ID)!;
  return { dir, db, repo, keys, primary };
}

describe('ProviderKeys', () => {
  it('seals the key: the database file never holds it in plaintext, and the status never carries it', async () => {
    const { dir, db, keys, primary } = store();
    expect(keys.status(primary())).toMatchObject({ state: 'not-set' });
    await keys.set(PRIMARY_PROVIDER_ID, KEY);
    const status = keys.status(primary());
    expect(status).toMatchObject({ state: 'set', source: 'stored', storage: expect.stringMatching(/secrets\.key.*owner-only/) });
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(await keys.resolve(PRIMARY_PROVIDER_ID)).toBe(KEY);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith(DATABASE_FILE))) {
      expect(fs.readFileSync(path.join(dir, file)).includes(Buffer.from(KEY))).toBe(false);
    }
    expect(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
  });

  it('keeps each provider its own key, survives a restart, and forgets a key when cleared', async () => {
    const { dir, db, repo, keys } = store();
    const other = repo.insert({ type: 'openai-compatible', name: 'Local', baseUrl: 'http://127.0.0.1:9/v1', sealedKey: null }, new Date());
    await keys.set(PRIMARY_PROVIDER_ID, KEY);
    await keys.set(other.id, 'sk-other');
    db.close();
    const again = openDatabase(dir);
    const reopened = new ProviderKeys({ repo: new ProviderRepository(again.db), secrets: new KeyFileSecretBox(dir), mode: 'web', env: {} });
    expect(await reopened.resolve(PRIMARY_PROVIDER_ID)).toBe(KEY);
    expect(await reopened.resolve(other.id)).toBe('sk-other');
    reopened.clear(PRIMARY_PROVIDER_ID);
    expect(await reopened.resolve(PRIMARY_PROVIDER_ID)).toBeUndefined();
    expect(await reopened.resolve(other.id)).toBe('sk-other');
    again.db.close();
  });

  it('in web mode honours the environment variable the type names, says so, and an entered key wins', async () => {
    const { keys, db, primary } = store({ env: { ANTHROPIC_API_KEY: 'sk-from-env' } });
    expect(keys.status(primary(), 'ANTHROPIC_API_KEY')).toMatchObject({ state: 'set', source: 'environment' });
    expect(await keys.resolve(PRIMARY_PROVIDER_ID, 'ANTHROPIC_API_KEY')).toBe('sk-from-env');
    expect(await keys.resolve(PRIMARY_PROVIDER_ID)).toBeUndefined(); // no variable named: none taken
    await keys.set(PRIMARY_PROVIDER_ID, KEY);
    expect(await keys.resolve(PRIMARY_PROVIDER_ID, 'ANTHROPIC_API_KEY')).toBe(KEY);
    keys.clear(PRIMARY_PROVIDER_ID);
    expect(keys.status(primary(), 'ANTHROPIC_API_KEY')).toMatchObject({ state: 'set', source: 'environment' });
    db.close();
    const desktop = store({ mode: 'electron', env: { ANTHROPIC_API_KEY: 'sk-from-env' } });
    expect(desktop.keys.status(desktop.primary(), 'ANTHROPIC_API_KEY')).toMatchObject({ state: 'not-set' });
    desktop.db.close();
  });

  it('reports a stored key it cannot open (sealed by the desktop keychain) instead of failing', async () => {
    const { db, repo, keys, primary } = store();
    await keys.set(PRIMARY_PROVIDER_ID, KEY);
    const cannotOpen: SecretBox = {
      scheme: SCHEME_SAFE_STORAGE,
      description: 'the system keychain',
      seal: async () => Buffer.alloc(0),
      open: async () => {
        throw new Error('This secret was stored with the key file and cannot be read here: enter it again.');
      },
    };
    const other = new ProviderKeys({ repo, secrets: cannotOpen, mode: 'electron' });
    expect(await other.resolve(PRIMARY_PROVIDER_ID)).toBeUndefined();
    expect(other.status(primary())).toMatchObject({ state: 'not-set', problem: expect.stringMatching(/enter it again/) });
    db.close();
  });
});
