/**
 * Migration 013 on a database written by the schema before it: the Anthropic settings (base URL,
 * sealed key, default model) become the Anthropic provider without loss, the old rows are gone (one
 * place for each value), and an existing conversation keeps working on the default model.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRIMARY_PROVIDER_ID } from '@contract';
import { tempDir } from '../../test-support/temp-dir';
import { startTestHost } from '../../test-support/test-host';
import { startScriptedLlm } from '../chat/test-support/scripted-llm';
import { KeyFileSecretBox } from '../secrets/key-file-secret-box';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE } from '../store/database';
import { MIGRATIONS, migrate } from '../store/migrations';
import providers012 from '../store/migrations/012_providers';

const KEY = 'sk-ant-api03-from-before-providers';

/** A data directory as the previous Patchbay left it. */
async function previousSchema(baseUrl: string): Promise<string> {
  const dir = tempDir();
  const db = new Database(path.join(dir, DATABASE_FILE));
  migrate(db, MIGRATIONS.slice(0, MIGRATIONS.indexOf(providers012)));
  const sealed = await new KeyFileSecretBox(dir).seal(KEY);
  const at = '2026-01-01T00:00:00.000Z';
  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('anthropicBaseUrl', JSON.stringify(baseUrl), at);
  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('defaultModel', JSON.stringify('claude-opus-5-5'), at);
  db.prepare('INSERT INTO host_secrets (name, sealed, updated_at) VALUES (?, ?, ?)').run('anthropic_api_key', sealed, at);
  db.prepare(
    "INSERT INTO conversations (id, title, server_ids, last_error, message_count, created_at, updated_at) VALUES ('c1', 'Before', NULL, NULL, 2, ?, ?)",
  ).run(at, at);
  const insert = db.prepare(
    "INSERT INTO chat_messages (conversation_id, seq, role, content, status, model, created_at, updated_at) VALUES ('c1', ?, ?, ?, 'complete', ?, ?, ?)",
  );
  insert.run(1, 'user', JSON.stringify([{ type: 'text', text: 'Hello' }]), null, at, at);
  insert.run(2, 'assistant', JSON.stringify([{ type: 'text', text: 'Hi!' }]), 'claude-opus-5-5', at, at);
  db.close();
  return dir;
}

describe('migration 013: providers', () => {
  it('moves the Anthropic settings into the first provider without loss, and old conversations use the default', async () => {
    const llm = await startScriptedLlm();
    try {
      const dataDir = await previousSchema(llm.url);
      const { api, events, host } = startTestHost({ dataDir });
      const snapshot = await api.getSnapshot();
      expect(snapshot.providers.providers).toEqual([
        expect.objectContaining({ id: PRIMARY_PROVIDER_ID, type: 'anthropic', name: 'Anthropic', baseUrl: llm.url, primary: true }),
      ]);
      expect(snapshot.providers.providers[0].apiKey).toMatchObject({ state: 'set', source: 'stored' });
      expect(snapshot.settings).toMatchObject({
        anthropicBaseUrl: llm.url,
        defaultModel: 'claude-opus-5-5',
        defaultProviderId: PRIMARY_PROVIDER_ID,
      });
      expect(snapshot.chat.conversations).toMatchObject([{ id: 'c1', title: 'Before', messageCount: 2 }]);
      expect(snapshot.chat.conversations[0].providerId).toBeUndefined();
      const [, answer] = (await api.listMessages({ conversationId: 'c1' })).messages;
      expect(answer).toMatchObject({ model: 'claude-opus-5-5' });
      expect(answer.providerId).toBeUndefined();

      // The old rows are gone: each value has one place now.
      const raw = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
      expect(raw.prepare("SELECT COUNT(*) AS n FROM settings WHERE key = 'anthropicBaseUrl'").get()).toEqual({ n: 0 });
      expect(raw.prepare('SELECT COUNT(*) AS n FROM host_secrets').get()).toEqual({ n: 0 });
      raw.close();

      // The moved key still opens, and the old conversation's next turn goes to the default model with it.
      await llm.script([{ type: 'text', text: 'Still here.' }]);
      await api.sendMessage({ conversationId: 'c1', text: 'Again' });
      await waitFor(
        () => events.some((e) => e.name === 'conversationUpdated' && e.payload.turn === 'idle' && e.payload.messageCount === 4),
        {
          timeoutMs: 10_000,
          what: 'the answer',
        },
      );
      const [request] = await llm.messageRequests();
      expect(request.credential.key).toBe(KEY);
      expect(request.body).toMatchObject({ model: 'claude-opus-5-5' });
      expect(request.body?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      await host.dispose();
    } finally {
      await llm.stop();
    }
  });

  it('makes the provider on a fresh database too, with the defaults', async () => {
    const { api } = startTestHost();
    const { providers } = (await api.getSnapshot()).providers;
    expect(providers).toMatchObject([{ id: PRIMARY_PROVIDER_ID, baseUrl: '', endpoint: 'https://api.anthropic.com', keyRequired: true }]);
  });
});
