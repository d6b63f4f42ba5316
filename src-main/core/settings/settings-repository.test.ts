import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@contract';
import { tempDir } from '../../test-support/temp-dir';
import { openDatabase } from '../store/database';
import { SettingsRepository } from './settings-repository';

describe('SettingsRepository', () => {
  it('starts from the defaults and round-trips a change through a reopen', () => {
    const dir = tempDir();
    const first = openDatabase(dir);
    const repo = new SettingsRepository(first.db);
    expect(repo.read()).toEqual(DEFAULT_SETTINGS);
    const written = repo.write({ theme: 'dark', anthropicBaseUrl: 'http://127.0.0.1:9/v1' }, new Date());
    expect(written).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', anthropicBaseUrl: 'http://127.0.0.1:9/v1' });
    first.db.close();

    const second = openDatabase(dir);
    expect(new SettingsRepository(second.db).read()).toEqual(written);
    second.db.close();
  });

  it('falls back to the default for a stored value that is not valid any more', () => {
    const { db } = openDatabase(tempDir());
    db.prepare("INSERT INTO settings VALUES ('theme', '\"purple\"', 'x'), ('defaultModel', 'not json', 'x'), ('unknown', '1', 'x')").run();
    expect(new SettingsRepository(db).read()).toEqual(DEFAULT_SETTINGS);
    db.close();
  });
});
