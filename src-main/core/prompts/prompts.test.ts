/**
 * Prompts and completion through the contract, as the Prompts tab and the template forms use them:
 * server-everything's prompts (stdio), the content-lab fixture's awkward ones, and a 2026-07-28 server.
 */
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FIXTURES_DIR } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { startModernHttpServer } from '../servers/test-support/http-servers';

const LAB = path.join(FIXTURES_DIR, 'content-lab.mjs');
const lab = (t: TestHost, name: string, ...flags: string[]) => t.addServer({ name, command: process.execPath, args: [LAB, ...flags] });

describe('prompts of server-everything', () => {
  it('lists them with their arguments, runs args-prompt and resource-prompt, and completes by department', async () => {
    const t = startHost();
    const id = await t.everything();
    onTestFinished(() => t.host.dispose());

    const { prompts } = await t.api.listPrompts({ serverIds: [id] });
    expect(prompts.find((p) => p.name === 'args-prompt')).toMatchObject({
      serverName: 'everything',
      title: 'Arguments Prompt',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    });

    await expect(t.api.getPrompt({ serverId: id, name: 'args-prompt', arguments: {} })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [{ path: ['arguments', 'city'], message: 'city is required' }],
    });
    const weather = await t.api.getPrompt({ serverId: id, name: 'args-prompt', arguments: { city: 'Lisbon', state: '' } });
    expect(weather.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Lisbon?" } }]);
    expect(weather.arguments).toEqual({ city: 'Lisbon' });

    const embedded = await t.api.getPrompt({ serverId: id, name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '4' } });
    expect(embedded.messages[1]).toMatchObject({
      role: 'user',
      content: { type: 'resource', uri: 'demo://resource/dynamic/text/4', text: expect.stringContaining('Resource 4') },
    });

    const complete = (name: string, value: string, context: Record<string, string> = {}) =>
      t.api.completeArgument({ serverId: id, ref: { type: 'prompt', name: 'completable-prompt' }, argument: { name, value }, context });
    expect((await complete('department', 'E')).values).toEqual(['Engineering']);
    expect((await complete('name', '', { department: 'Engineering' })).values).toEqual(['Alice', 'Bob', 'Charlie']);
    expect((await complete('name', '', { department: 'Sales' })).values).toEqual(['David', 'Eve', 'Frank']);
    const template = await t.api.completeArgument({
      serverId: id,
      ref: { type: 'resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '12' },
    });
    expect(template.values).toEqual(['12']);

    const audit = (await t.api.listContentAudit({})).entries;
    expect(audit.map((e) => [e.action, e.target, e.outcome])).toEqual([
      ['prompt-preview', 'resource-prompt', 'ok'],
      ['prompt-preview', 'args-prompt', 'ok'],
    ]);
    expect(audit[1].detail).toBe('{"city":"Lisbon"}');
  });
});

describe('completion that goes wrong', () => {
  it('yields nothing, quickly enough to keep typing, when the server never answers or has no completions', async () => {
    const t = startHost();
    const slow = await lab(t, 'slow');
    const plain = await lab(t, 'plain', '--no-completions');
    onTestFinished(() => t.host.dispose());
    const started = Date.now();
    expect(
      await t.api.completeArgument({
        serverId: slow,
        ref: { type: 'prompt', name: 'slow-complete' },
        argument: { name: 'topic', value: 'a' },
      }),
    ).toEqual({ values: [] });
    expect(Date.now() - started).toBeLessThan(10_000);
    // The server is fine afterwards, and answers the next question.
    expect(
      (
        await t.api.completeArgument({
          serverId: slow,
          ref: { type: 'prompt', name: 'team' },
          argument: { name: 'department', value: 'S' },
        })
      ).values,
    ).toEqual(['Sales', 'Support']);
    // No `completions` capability: nothing is sent at all.
    expect(
      await t.api.completeArgument({
        serverId: plain,
        ref: { type: 'prompt', name: 'team' },
        argument: { name: 'department', value: 'S' },
      }),
    ).toEqual({ values: [] });
    const output = await t.api.queryLogs({ serverId: plain, stream: 'output', limit: 500 });
    expect(JSON.stringify(output)).not.toContain('completion/complete');
  });

  it('shows every kind of prompt content and reports a prompt error in the server’s words', async () => {
    const t = startHost();
    const id = await lab(t, 'lab');
    onTestFinished(() => t.host.dispose());
    const mixed = await t.api.getPrompt({ serverId: id, name: 'with-resource' });
    expect(mixed.messages.map((m) => m.content.type)).toEqual(['text', 'resource', 'resource_link', 'image']);
    expect(mixed.messages[3].content).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.any(String) });
    expect(mixed.chars).toBe('Please read this:'.length + '{"name":"lab","items":[1,2,3],"nested":{"ok":true}}'.length);
    await expect(t.api.getPrompt({ serverId: id, name: 'nope' })).rejects.toThrow(/lab.*Unknown prompt: nope/);
  });
});

describe('a 2026-07-28 server', () => {
  it('lists, reads and completes resources and prompts statelessly', async () => {
    const server = await startModernHttpServer();
    const t = startHost();
    const id = await t.addServer({ name: 'modern', transport: 'http', url: server.url });
    onTestFinished(() => t.host.dispose());

    const page = await t.api.listResources({ serverIds: [id] });
    expect(page.items.map((r) => r.uri).sort()).toEqual(['memo://logo.png', 'memo://notes']);
    expect((await t.api.readResource({ serverId: id, uri: 'memo://notes' })).contents[0]).toMatchObject({ text: 'Notes, version 1' });
    const { templates } = await t.api.listResourceTemplates({ serverIds: [id] });
    expect(templates).toEqual([expect.objectContaining({ name: 'Memo by topic', variables: [{ name: 'topic', required: true }] })]);
    const topics = await t.api.completeArgument({
      serverId: id,
      ref: { type: 'resource', uri: 'memo://topics/{topic}' },
      argument: { name: 'topic', value: 'ar' },
    });
    expect(topics.values).toEqual(['architecture', 'archery']);
    expect((await t.api.readResource({ serverId: id, uri: 'memo://topics/botany', purpose: 'template' })).contents[0]).toMatchObject({
      text: 'A memo about botany',
    });

    const { prompts } = await t.api.listPrompts({ serverIds: [id] });
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'brief',
        arguments: expect.arrayContaining([expect.objectContaining({ name: 'topic', required: true })]),
      }),
    ]);
    expect(
      (await t.api.completeArgument({ serverId: id, ref: { type: 'prompt', name: 'brief' }, argument: { name: 'topic', value: 'a' } }))
        .values,
    ).toEqual(['architecture', 'archery', 'astronomy']);
    const brief = await t.api.getPrompt({ serverId: id, name: 'brief', arguments: { topic: 'astronomy' } });
    expect(brief.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Brief me on astronomy.' } }]);
  });
});
