import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../store/database';
import { testScope } from '../../test-support/fixtures';
import { ServerConfigRepository, type ServerFields } from './server-config-repository';
import { NO_SANDBOX, ServerInputSchema } from '@contract';

function repository(): ServerConfigRepository {
  return repositoryAndDb().repo;
}

function repositoryAndDb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-configs-'));
  const { db } = openDatabase(dir);
  testScope().defer(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { repo: new ServerConfigRepository(db), db };
}

const fields = (name: string, extra: Record<string, unknown> = {}): ServerFields => ({
  ...ServerInputSchema.parse({ name, command: 'node', args: ['server.js'], ...extra }),
  sandbox: (extra.sandbox as ServerFields['sandbox'] | undefined) ?? NO_SANDBOX,
  env: [{ key: 'MODE', value: 'one' }],
  headers: [],
  oauthClientSecret: undefined,
  oauthPrivateKey: undefined,
  idpClientSecret: undefined,
});

describe('ServerConfigRepository (reads served from memory)', () => {
  it('every write is seen by the next read, by id and in the list', () => {
    const repo = repository();
    const now = new Date('2026-01-01T00:00:00Z');
    const a = repo.insert(fields('a'), now);
    expect(repo.list().map((s) => s.name)).toEqual(['a']);
    const b = repo.insert(fields('b'), now);
    expect(repo.list().map((s) => s.name)).toEqual(['a', 'b']);
    expect(repo.get(a.id)?.env).toEqual([{ key: 'MODE', value: 'one' }]);

    repo.update(a.id, { ...fields('a2'), env: [{ key: 'MODE', value: 'two' }] }, now);
    expect(repo.get(a.id)).toMatchObject({ name: 'a2', env: [{ key: 'MODE', value: 'two' }] });
    expect(repo.list().map((s) => s.name)).toEqual(['a2', 'b']);

    repo.setEnabled(b.id, false, now);
    expect(repo.get(b.id)?.enabled).toBe(false);
    expect(repo.list().find((s) => s.id === b.id)?.enabled).toBe(false);

    repo.saveEraVerdict(b.id, JSON.stringify({ kind: 'legacy' }));
    expect(repo.get(b.id)?.eraVerdict).toBe(JSON.stringify({ kind: 'legacy' }));

    repo.remove(a.id);
    expect(repo.get(a.id)).toBeUndefined();
    expect(repo.list().map((s) => s.id)).toEqual([b.id]);
  });

  it('a failed update leaves the stored config readable as it is', () => {
    const repo = repository();
    const now = new Date('2026-01-01T00:00:00Z');
    const a = repo.insert(fields('a'), now);
    expect(repo.get(a.id)?.name).toBe('a');
    expect(() => repo.update('no-such-id', fields('x'), now)).toThrow(/No server/);
    expect(repo.get(a.id)?.name).toBe('a');
  });

  it('a server inserted in a transaction that is rolled back is not served from memory afterwards', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-configs-'));
    const { db } = openDatabase(dir);
    testScope().defer(() => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const repo = new ServerConfigRepository(db);
    const now = new Date('2026-01-01T00:00:00Z');
    let id = '';
    expect(() =>
      db.transaction(() => {
        id = repo.insert(fields('gone'), now).id;
        expect(repo.list().map((s) => s.name)).toEqual(['gone']);
        throw new Error('the import failed half-way');
      })(),
    ).toThrow('the import failed half-way');
    expect(repo.get(id)).toBeUndefined();
    expect(repo.list()).toEqual([]);
  });

  it('a verdict saved at ready changes the cached config: the list is not read again, an unchanged verdict not written', () => {
    const { repo, db } = repositoryAndDb();
    const now = new Date('2026-01-01T00:00:00Z');
    const servers = ['a', 'b', 'c'].map((name) => repo.insert(fields(name), now));
    repo.list();
    const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    const changesBefore = totalChanges.get()!;
    const prepared = vi.spyOn(db, 'prepare');
    const verdict = JSON.stringify({ kind: 'legacy' });

    for (const server of servers) repo.saveEraVerdict(server.id, verdict);
    expect(repo.list().map((server) => server.eraVerdict)).toEqual([verdict, verdict, verdict]);
    expect(repo.get(servers[1].id)?.eraVerdict).toBe(verdict);
    // The next start finds the same verdict: nothing is written.
    repo.saveEraVerdict(servers[1].id, verdict);
    expect(prepared).not.toHaveBeenCalled();
    expect(totalChanges.get()! - changesBefore).toBe(3);
    // And it is stored: a fresh repository reads it from the database.
    expect(new ServerConfigRepository(db).get(servers[2].id)?.eraVerdict).toBe(verdict);
    prepared.mockRestore();
  });
});
