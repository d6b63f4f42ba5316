import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { createHost } from './host';
import { DATABASE_FILE } from './store/database';

describe('createHost', () => {
  it('reports live host facts and persists settings across a restart', async () => {
    const dataDir = tempDir();
    const host = createHost({ mode: 'web', dataDir, appVersion: '1.2.3' });
    const events: unknown[] = [];
    host.events.subscribe((event) => events.push(event));
    const snapshot = await host.handlers.getSnapshot(undefined);
    expect(snapshot.info).toMatchObject({ version: '1.2.3', mode: 'web', dataDir, database: { state: 'ok', synchronous: 'FULL' } });

    const saved = await host.handlers.updateSettings({ theme: 'light', defaultModel: 'claude-test' });
    expect(events).toEqual([{ name: 'settingsChanged', payload: saved }]);
    await host.dispose();
    await host.dispose(); // idempotent

    const again = createHost({ mode: 'electron', dataDir, appVersion: '1.2.3' });
    expect((await again.handlers.getSnapshot(undefined)).settings).toEqual(saved);
    await again.dispose();
  });

  it('refuses to start on a database from a newer Patchbay, with a message saying what to do', () => {
    const dataDir = tempDir();
    const db = new Database(path.join(dataDir, DATABASE_FILE));
    db.pragma('user_version = 999');
    db.close();
    expect(() => createHost({ mode: 'web', dataDir, appVersion: '1.0.0' })).toThrow(/newer Patchbay.*left untouched/s);
  });
});
