/**
 * Providers through the host API, as every bridge calls it: adding an OpenAI-compatible endpoint
 * (the scripted one), its models, its key sealed and never sent back, validation, the Anthropic
 * provider behind Settings' quick fields, removal, and local-preset detection.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PRIMARY_PROVIDER_ID, type ProviderPreset } from '@contract';
import { startTestHost } from '../../test-support/test-host';
import { useScriptedOpenAi } from '../../test-support/use-scripted-openai';
import { waitFor } from '../servers/wait';
import { DATABASE_FILE } from '../store/database';

const server = useScriptedOpenAi();
const KEY = 'sk-or-v1-THIS-MUST-NEVER-LEAVE-THE-HOST';

async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('providers through the host API', () => {
  it('adds an OpenAI-compatible provider, lists its models, keeps its key sealed, and never sends the key back', async () => {
    const { api, events, dataDir, host } = startTestHost();
    const before = await api.getSnapshot();
    expect(before.providers.providers).toMatchObject([{ id: PRIMARY_PROVIDER_ID, type: 'anthropic', name: 'Anthropic', primary: true }]);

    await server.script([], { models: ['llama3.1:8b', 'mistral-nemo'], apiKey: KEY });
    const added = await api.addProvider({ type: 'openai-compatible', name: '  Local  ', baseUrl: server.url, apiKey: KEY });
    expect(added).toMatchObject({
      name: 'Local',
      type: 'openai-compatible',
      endpoint: server.url,
      apiKey: { state: 'set', source: 'stored' },
    });
    await waitFor(async () => (await api.getSnapshot()).providers.providers.find((p) => p.id === added.id)?.models.length === 2, {
      what: 'the models list',
    });
    const listed = (await api.getSnapshot()).providers.providers.find((p) => p.id === added.id)!;
    expect(listed.models.map((m) => m.id)).toEqual(['llama3.1:8b', 'mistral-nemo']);
    expect(listed.modelsFetchedAt).toEqual(expect.any(String));
    expect((await server.requests()).find((r) => r.path === '/v1/models')?.credential.key).toBe(KEY);

    expect(JSON.stringify(await api.getSnapshot())).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    await host.dispose();
    for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith(DATABASE_FILE))) {
      expect(fs.readFileSync(path.join(dataDir, file)).includes(Buffer.from(KEY))).toBe(false);
    }
  });

  it('refreshes on demand, says why a list is missing, changes and clears keys, and removes', async () => {
    const { api } = startTestHost();
    const port = await closedPort();
    const down = await api.addProvider({ type: 'openai-compatible', name: 'Ollama', baseUrl: `http://127.0.0.1:${port}/v1` });
    const refreshed = await api.refreshProviderModels({ id: down.id });
    expect(refreshed.models).toEqual([]);
    expect(refreshed.modelsNote).toBe(
      `Could not list models: Ollama at http://127.0.0.1:${port}/v1 is not running (connection refused). Start it, then press Refresh models.`,
    );

    const moved = await api.updateProvider({ id: down.id, baseUrl: server.url, name: 'Ollama here' });
    expect(moved).toMatchObject({ name: 'Ollama here', baseUrl: server.url });
    expect((await api.refreshProviderModels({ id: down.id })).models.map((m) => m.id)).toEqual(['llama3.1:8b', 'qwen2.5:7b']);
    expect((await api.updateProvider({ id: down.id, apiKey: 'sk-x' })).apiKey).toMatchObject({ state: 'set' });
    expect((await api.updateProvider({ id: down.id, clearApiKey: true })).apiKey).toMatchObject({ state: 'not-set' });

    await api.removeProvider({ id: down.id });
    expect((await api.getSnapshot()).providers.providers.map((p) => p.id)).toEqual([PRIMARY_PROVIDER_ID]);
    await expect(api.removeProvider({ id: down.id })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('refuses what cannot work, field by field', async () => {
    const { api } = startTestHost();
    await expect(api.addProvider({ type: 'openai-compatible', name: 'x', baseUrl: '' })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [expect.objectContaining({ path: ['baseUrl'], message: expect.stringMatching(/needs its base URL/) })],
    });
    await expect(api.addProvider({ type: 'openai-compatible', name: 'x', baseUrl: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(api.addProvider({ type: 'openai-compatible', name: ' ', baseUrl: server.url })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(api.addProvider({ type: 'openai-compatible', name: 'x', baseUrl: server.url, apiKey: 'has space' })).rejects.toMatchObject(
      {
        code: 'invalid_input',
      },
    );
    await expect(api.removeProvider({ id: PRIMARY_PROVIDER_ID })).rejects.toMatchObject({
      message: expect.stringMatching(/cannot be removed/),
    });
    const local = await api.addProvider({ type: 'openai-compatible', name: 'L', baseUrl: server.url });
    await expect(api.updateProvider({ id: local.id, baseUrl: '' })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it("keeps Settings' quick fields and the Anthropic provider one: the base URL and the key, either way round", async () => {
    const { api, events } = startTestHost();
    await api.updateSettings({ anthropicBaseUrl: 'http://127.0.0.1:9/gateway' });
    expect((await api.getSnapshot()).providers.providers[0]).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/gateway',
      endpoint: 'http://127.0.0.1:9/gateway',
    });
    await waitFor(() => events.some((e) => e.name === 'providersChanged' && e.payload[0].baseUrl === 'http://127.0.0.1:9/gateway'), {
      what: 'providersChanged for the quick field',
    });
    const mark = events.length;
    await api.updateProvider({ id: PRIMARY_PROVIDER_ID, baseUrl: '' });
    expect((await api.getSnapshot()).settings.anthropicBaseUrl).toBe('');
    expect(events.slice(mark).some((e) => e.name === 'settingsChanged' && e.payload.anthropicBaseUrl === '')).toBe(true);
    expect((await api.getSnapshot()).providers.providers[0].endpoint).toBe('https://api.anthropic.com');

    const status = await api.setApiKey({ apiKey: 'sk-ant-quick' });
    expect(status.apiKey).toMatchObject({ state: 'set', source: 'stored' });
    expect((await api.getSnapshot()).providers.providers[0].apiKey).toMatchObject({ state: 'set' });
    expect(events.some((e) => e.name === 'llmStatusChanged' && e.payload.apiKey.state === 'set')).toBe(true);
    await api.updateProvider({ id: PRIMARY_PROVIDER_ID, clearApiKey: true });
    expect((await api.getSnapshot()).chat.llm.apiKey).toMatchObject({ state: 'not-set' });
  });

  it('web mode takes the Anthropic base URL from ANTHROPIC_BASE_URL when none is set, as the SDK does; a set one wins', async () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9/from-env');
    try {
      const { api } = startTestHost();
      expect((await api.getSnapshot()).providers.providers[0]).toMatchObject({ baseUrl: '', endpoint: 'http://127.0.0.1:9/from-env' });
      await api.updateSettings({ anthropicBaseUrl: 'http://127.0.0.1:9/gateway' });
      expect((await api.getSnapshot()).providers.providers[0].endpoint).toBe('http://127.0.0.1:9/gateway');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('web mode sends OpenAI-preset requests to OPENAI_BASE_URL, as the OpenAI SDK does; other endpoints keep theirs', async () => {
    vi.stubEnv('OPENAI_BASE_URL', server.url);
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env');
    try {
      const { api } = startTestHost();
      const openai = await api.addProvider({ type: 'openai-compatible', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1/' });
      expect(openai).toMatchObject({ baseUrl: 'https://api.openai.com/v1/', endpoint: server.url });
      // The key from the same environment goes with it, as the SDK would send it.
      expect(openai.apiKey).toMatchObject({ state: 'set', source: 'environment' });
      const local = await api.addProvider({ type: 'openai-compatible', name: 'Local', baseUrl: 'http://127.0.0.1:9/v1' });
      expect(local).toMatchObject({ endpoint: 'http://127.0.0.1:9/v1', apiKey: { state: 'not-set' } });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('removing the default provider puts conversations and the default back on the Anthropic provider', async () => {
    const { api } = startTestHost();
    const local = await api.addProvider({ type: 'openai-compatible', name: 'Local', baseUrl: server.url });
    await api.updateSettings({ defaultProviderId: local.id, defaultModel: 'llama3.1:8b' });
    const conversation = await api.createConversation();
    expect(conversation).toMatchObject({ providerId: local.id, model: 'llama3.1:8b' });
    await expect(api.setConversationModel({ id: conversation.id, providerId: 'nope', model: 'x' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await api.removeProvider({ id: local.id });
    const snapshot = await api.getSnapshot();
    expect(snapshot.settings).toMatchObject({ defaultProviderId: PRIMARY_PROVIDER_ID, defaultModel: 'claude-sonnet-5-5' });
    expect(snapshot.chat.conversations[0].providerId).toBeUndefined();
  });

  it('detects a local preset whose port answers, from the host', async () => {
    const port = await closedPort();
    const presets: ProviderPreset[] = [
      { id: 'ollama', name: 'Ollama', type: 'openai-compatible', baseUrl: server.url, local: true },
      { id: 'lm-studio', name: 'LM Studio', type: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1`, local: true },
      { id: 'openai', name: 'OpenAI', type: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', local: false },
    ];
    const { api } = startTestHost({ providerPresets: presets });
    expect(await api.detectLocalProviders()).toEqual([
      { presetId: 'ollama', running: true, models: 2 },
      { presetId: 'lm-studio', running: false },
    ]);
  });
});
